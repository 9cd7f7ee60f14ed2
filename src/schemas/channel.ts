/**
 * Shapes of a channel's stored configuration (docs/reference/product-rules.md#data), parsed at the data layer's edge. Every URL
 * follows the rule of post bodies (src/lib/safe-url.ts): an entry whose URL breaks it is left out
 * when read, an icon or banner image becomes none.
 */
import './zod-config';
import { z } from 'zod';
import { PathSegmentSchema } from './params';
import { SafeLinkSchema, entriesKeeping } from './link';

export const LanguageSchema = z.enum(['en', 'ja', 'ko', 'zh']);
export type Language = z.infer<typeof LanguageSchema>;

export const ProviderSchema = z.enum(['APPLE', 'GOOGLE', 'X']);
export type Provider = z.infer<typeof ProviderSchema>;

export const YesNoSchema = z.enum(['Y', 'N']);

/** A label and the link it leads to (externalLinks, policyItems, snsLinks). */
const LabelledLinkSchema = z.object({ key: z.string().min(1), value: SafeLinkSchema });
/** A logo image and the link it leads to (companyCiIcons). */
const ImageLinkSchema = z.object({ key: SafeLinkSchema, value: SafeLinkSchema });
/** A sibling channel of the footer's switcher: its title and its slug on the same domain. */
const ChannelEntrySchema = z.object({ key: z.string().min(1), value: PathSegmentSchema });

/** How a link preview's image ends: PNG or JPEG, the types every preview (Facebook, X, LINE, KakaoTalk, Discord) shows. */
const RASTER_IMAGE = /\.(?:png|jpe?g)$/i;

/** The MIME type of a PNG or JPEG path (its extension, before any query), or null for any other image. */
export function rasterImageType(path: string): 'image/png' | 'image/jpeg' | null {
	const bare = path.split(/[?#]/, 1)[0] ?? '';
	if (!RASTER_IMAGE.test(bare)) return null;
	return /\.png$/i.test(bare) ? 'image/png' : 'image/jpeg';
}

/**
 * The community's picture for link previews (docs/reference/seo.md#share-images): a PNG or JPEG of 1.91:1,
 * 1200×630 recommended, at least 600×315, with the text a screen reader says for it.
 */
export const ShareImageSchema = z.object({
	url: SafeLinkSchema.refine((url) => rasterImageType(url) !== null, 'must be a .png or .jpg image'),
	width: z.number().int().min(600).max(4096),
	height: z.number().int().min(315).max(4096),
	alt: z.string().trim().min(1).max(300),
});
export type ShareImage = z.infer<typeof ShareImageSchema>;

export const HeaderConfigSchema = z.object({
	gameBiIcon: SafeLinkSchema.nullable().catch(null),
	/** Absent in rows applied before share images: none. */
	shareImage: ShareImageSchema.nullable().catch(null),
	topPinnedHome: YesNoSchema,
	topPinnedBoard: YesNoSchema,
	topPinnedTargetBoards: z.array(z.number().int().positive()),
	externalLinks: entriesKeeping(LabelledLinkSchema),
});
export type HeaderConfig = z.infer<typeof HeaderConfigSchema>;

export const FooterConfigSchema = z.object({
	channels: entriesKeeping(ChannelEntrySchema),
	company: z.string(),
	companyCiIcons: entriesKeeping(ImageLinkSchema),
	copyright: z.string(),
	policyItems: entriesKeeping(LabelledLinkSchema),
	snsLinks: entriesKeeping(LabelledLinkSchema),
});
export type FooterConfig = z.infer<typeof FooterConfigSchema>;

export const BannerSchema = z.object({ backgroundColor: z.string(), imageUrl: SafeLinkSchema });
export type Banner = z.infer<typeof BannerSchema>;

export const ThemeTypeSchema = z.enum(['LIGHT', 'DARK']);

/** The social networks the footer shows; other snsLinks keys are ignored (docs/reference/product-rules.md#main-layout). */
export const SNS_KEYS = ['FACEBOOK', 'X', 'LINE'] as const;
