/** Shapes of a channel's stored configuration (SPEC §3), parsed at the data layer's edge. */
import './zod-config';
import { z } from 'zod';

export const LanguageSchema = z.enum(['en', 'ja', 'ko', 'zh']);
export type Language = z.infer<typeof LanguageSchema>;

export const ProviderSchema = z.enum(['APPLE', 'GOOGLE', 'X']);
export type Provider = z.infer<typeof ProviderSchema>;

export const YesNoSchema = z.enum(['Y', 'N']);

/** A key/value pair as the SPEC lists them (externalLinks, policyItems, snsLinks, …). */
export const KeyValueSchema = z.object({ key: z.string().min(1), value: z.string().min(1) });
export type KeyValue = z.infer<typeof KeyValueSchema>;

export const HeaderConfigSchema = z.object({
	gameBiIcon: z.string().nullable(),
	topPinnedHome: YesNoSchema,
	topPinnedBoard: YesNoSchema,
	topPinnedTargetBoards: z.array(z.number().int().positive()),
	externalLinks: z.array(KeyValueSchema),
});
export type HeaderConfig = z.infer<typeof HeaderConfigSchema>;

export const FooterConfigSchema = z.object({
	channels: z.array(KeyValueSchema),
	company: z.string(),
	companyCiIcons: z.array(KeyValueSchema),
	copyright: z.string(),
	policyItems: z.array(KeyValueSchema),
	snsLinks: z.array(KeyValueSchema),
});
export type FooterConfig = z.infer<typeof FooterConfigSchema>;

export const BannerSchema = z.object({ backgroundColor: z.string(), imageUrl: z.string() });
export type Banner = z.infer<typeof BannerSchema>;

export const ThemeTypeSchema = z.enum(['LIGHT', 'DARK']);
export const ExposureTypeSchema = z.string();

/** The social networks the footer shows; other snsLinks keys are ignored (SPEC §2). */
export const SNS_KEYS = ['FACEBOOK', 'X', 'LINE'] as const;
