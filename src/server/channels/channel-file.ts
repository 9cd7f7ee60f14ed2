/**
 * A community described in one file (`npm run channel -- apply FILE`): what an operator
 * writes to create or update a community, validated strictly (an entry that the app would leave
 * out when reading, like a link that breaks the URL rule, is refused here), with every board named
 * by a key of the file's own rather than a database id. The demo communities are such files
 * (channels/*.json); a file may as well be YAML. `parseChannelFile` answers the file, or each
 * problem as `path: reason`.
 */
import '@/schemas/zod-config';
import { z } from 'zod';
import { parse as parseYaml } from 'yaml';
import { DomainSchema, PathSegmentSchema } from '@/schemas/params';
import { LanguageSchema, ProviderSchema, ShareImageSchema, ThemeTypeSchema, YesNoSchema } from '@/schemas/channel';
import { SafeLinkSchema } from '@/schemas/link';
import { DocumentSchema } from '@/schemas/content';
import { NewMemberLimitsSchema } from '@/server/spam/new-members';
import { isModerationContact } from '@/server/channels/moderation-contact';

/** A board's key in the file: lower-case letters, digits and dashes. */
const BoardKeySchema = z
	.string()
	.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1 to 40 lower-case letters, digits or dashes, starting with a letter or digit');
const ColourSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #4f46e5');
/** A fixed database id (a content database's ids start far up: src/server/databases/ids.ts). */
const IdSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const Text = (max: number) => z.string().trim().min(1).max(max);
const LabelledLink = z.strictObject({ key: Text(100), value: SafeLinkSchema });
const ModerationContactSchema = z.string().trim().refine(isModerationContact, 'must be an email address or an https URL of at most 200 characters');

/**
 * A category: named across applies by its `key` (like a board's; `category-{id}` when the file
 * gives none, as `apply` prints it), or by a fixed `id`, or else by its name.
 */
const CategorySchema = z.strictObject({
	key: BoardKeySchema.optional(),
	id: IdSchema.optional(),
	name: Text(50),
	enabled: z.boolean().default(true),
});

const BoardSchema = z.strictObject({
	key: BoardKeySchema,
	/** A fixed id for a new board (kept across environments); ignored for a board that exists. */
	id: IdSchema.optional(),
	name: Text(50),
	description: z.string().trim().max(300).default(''),
	public: z.boolean().default(true),
	/** Only administrators write in it. */
	noticeOnly: z.boolean().default(false),
	/** The board's categories; a board without any takes no category. */
	categories: z.array(CategorySchema).max(50).default([]),
	/** What the write screen starts from (a document of src/schemas/content.ts), or none. */
	template: DocumentSchema.nullable().default(null),
});

const Fixed = { id: IdSchema.optional() };
const BoardNode = z.strictObject({ ...Fixed, type: z.literal('BOARD'), board: BoardKeySchema, text: Text(50).optional() });
const LinkNode = z.strictObject({ ...Fixed, type: z.literal('LINK'), text: Text(50), url: SafeLinkSchema });
const DividerNode = z.strictObject({ ...Fixed, type: z.literal('DIVIDER') });
const LeafNode = z.discriminatedUnion('type', [BoardNode, LinkNode, DividerNode]);
const TreeNodeSchema = z.discriminatedUnion('type', [
	z.strictObject({ ...Fixed, type: z.literal('ALL'), text: Text(50).default('All Posts') }),
	BoardNode,
	LinkNode,
	DividerNode,
	z.strictObject({
		...Fixed,
		type: z.literal('CATEGORY'),
		text: Text(50),
		collapsed: z.boolean().default(true),
		children: z.array(LeafNode).max(100).default([]),
	}),
]);

export const ChannelFileSchema = z
	.strictObject({
		domain: DomainSchema,
		slug: PathSegmentSchema,
		/** A fixed id for a new community; for one that exists it must be its own (`apply` refuses another). */
		// Channel ids stay below 2^21: the search index's rowids are channel × 2^32 + id (migrations/0010).
		id: z
			.number()
			.int()
			.min(1)
			.max(2 ** 21 - 1)
			.optional(),
		header: z.strictObject({
			title: Text(100),
			language: LanguageSchema,
			themeType: ThemeTypeSchema,
			keyColor: ColourSchema,
			backgroundColor: ColourSchema,
			pcHeaderColor: ColourSchema.nullable().default(null),
			pcHeaderImage: SafeLinkSchema.nullable().default(null),
		}),
		content: z.strictObject({ exposureType: z.enum(['ALL', 'BOARD_SELECTION']), exposureBoard: BoardKeySchema.nullable().default(null) }),
		headerConfig: z.strictObject({
			gameBiIcon: SafeLinkSchema.nullable().default(null),
			/** The picture of the community's link previews (docs/reference/seo.md#share-images). */
			shareImage: ShareImageSchema.strict().nullable().default(null),
			topPinnedHome: YesNoSchema,
			topPinnedBoard: YesNoSchema,
			topPinnedTargetBoards: z.array(BoardKeySchema).max(20).default([]),
			externalLinks: z.array(LabelledLink).max(20).default([]),
		}),
		footer: z.strictObject({
			channels: z
				.array(z.strictObject({ key: Text(100), value: PathSegmentSchema }))
				.max(50)
				.default([]),
			company: z.string().max(500).default(''),
			companyCiIcons: z
				.array(z.strictObject({ key: SafeLinkSchema, value: SafeLinkSchema }))
				.max(10)
				.default([]),
			copyright: z.string().max(200).default(''),
			policyItems: z.array(LabelledLink).max(10).default([]),
			snsLinks: z.array(LabelledLink).max(10).default([]),
		}),
		banner: z.strictObject({ backgroundColor: ColourSchema, imageUrl: SafeLinkSchema }).nullable().default(null),
		providers: z.array(ProviderSchema).max(3).default([]),
		moderation: z
			.strictObject({
				autoHideReports: z.number().int().min(1).max(1000).nullable().default(null),
				/** Where a member asks for a review of a hide or a ban (docs/reference/moderation.md): an email address or an https URL. */
				contact: ModerationContactSchema.nullable().default(null),
			})
			.default({ autoHideReports: null, contact: null }),
		/** Limits for members in their first day (src/server/spam/new-members.ts); each left out has its default. */
		newMembers: NewMemberLimitsSchema.prefault({}),
		boards: z.array(BoardSchema).min(1).max(100),
		tree: z.array(TreeNodeSchema).max(200),
	})
	.superRefine((file, context) => {
		const problem = (path: (string | number)[], message: string) => context.addIssue({ code: 'custom', path, message });
		const keys = new Set<string>();
		file.boards.forEach((board, index) => {
			if (keys.has(board.key)) problem(['boards', index, 'key'], `"${board.key}" is the key of another board`);
			keys.add(board.key);
			const names = new Set<string>();
			const categoryKeys = new Set<string>();
			board.categories.forEach((category, at) => {
				if (names.has(category.name)) problem(['boards', index, 'categories', at, 'name'], `"${category.name}" is another category's name`);
				names.add(category.name);
				if (category.key !== undefined && categoryKeys.has(category.key))
					problem(['boards', index, 'categories', at, 'key'], `"${category.key}" is the key of another category of this board`);
				if (category.key !== undefined) categoryKeys.add(category.key);
			});
		});
		const ids = file.boards.flatMap((board) => (board.id === undefined ? [] : [board.id]));
		if (new Set(ids).size !== ids.length) problem(['boards'], 'two boards have the same id');
		const known = (key: string, path: (string | number)[]) => keys.has(key) || problem(path, `no board has the key "${key}"`);
		if (file.content.exposureType === 'BOARD_SELECTION' && file.content.exposureBoard === null)
			problem(['content', 'exposureBoard'], 'BOARD_SELECTION needs the board the community opens on');
		if (file.content.exposureType === 'ALL' && file.content.exposureBoard !== null)
			problem(['content', 'exposureBoard'], 'must be null when the community opens on All Posts');
		if (file.content.exposureBoard !== null) known(file.content.exposureBoard, ['content', 'exposureBoard']);
		file.headerConfig.topPinnedTargetBoards.forEach((key, index) => known(key, ['headerConfig', 'topPinnedTargetBoards', index]));
		if (new Set(file.providers).size !== file.providers.length) problem(['providers'], 'a provider is listed twice');
		const inTree = new Set<string>();
		let all = 0;
		const visit = (node: z.infer<typeof TreeNodeSchema> | z.infer<typeof LeafNode>, path: (string | number)[]) => {
			if (node.type === 'ALL') all += 1;
			if (node.type === 'BOARD') {
				known(node.board, [...path, 'board']);
				if (inTree.has(node.board)) problem([...path, 'board'], `board "${node.board}" is in the tree twice`);
				inTree.add(node.board);
			}
			if (node.type === 'CATEGORY') node.children.forEach((child, index) => visit(child, [...path, 'children', index]));
		};
		file.tree.forEach((node, index) => visit(node, ['tree', index]));
		if (all > 1) problem(['tree'], 'has more than one All Posts node');
	});

export type ChannelFile = z.output<typeof ChannelFileSchema>;
export type BoardEntry = ChannelFile['boards'][number];
export type TreeEntry = ChannelFile['tree'][number];

/** `boards[2].name` from zod's path. */
function pathText(path: readonly PropertyKey[]): string {
	return (
		path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part)), '') ||
		'(file)'
	);
}

/** The file from its text (JSON, or YAML), or every problem as `path: reason`. */
export function parseChannelFile(
	text: string,
	format: 'json' | 'yaml' = 'json',
): { ok: true; file: ChannelFile } | { ok: false; problems: string[] } {
	let data: unknown;
	try {
		// YAML 1.2 (the core schema: `no` stays text), and a key given twice is an error, as in zod's strict objects.
		data = format === 'yaml' ? parseYaml(text, { prettyErrors: true, uniqueKeys: true }) : JSON.parse(text);
	} catch (error) {
		return { ok: false, problems: [`(file): not valid ${format === 'yaml' ? 'YAML' : 'JSON'}: ${(error as Error).message.split('\n')[0]}`] };
	}
	const parsed = ChannelFileSchema.safeParse(data);
	if (parsed.success) return { ok: true, file: parsed.data };
	return { ok: false, problems: parsed.error.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`) };
}
