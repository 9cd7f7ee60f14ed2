/** Types of the seed generator for the tests that load it. */
export declare const SEED_NOW: number;
export declare function demoSql(): string[];
/** Where `npm start` and the browser tests' server keep each demo community: its id → its binding. */
export declare const DEMO_DATABASES: Readonly<Record<number, string>>;
/** The demo over databases as `placement` says (DB where it names none), as statements by binding. */
export declare function demoSqlByDatabase(placement?: Readonly<Record<number, string>>): Record<string, string[]>;
/** The demo communities; only what the tests read is typed. */
export declare const DEMO_CHANNELS: readonly {
	index: number;
	domain: string;
	slug: string;
	providers: readonly string[];
	themeType: 'LIGHT' | 'DARK';
	keyColor: string;
	backgroundColor: string;
	pcHeaderColor: string | null;
	content: {
		nicknames: readonly string[];
		/** What each demo illustration (public/demo/shot-NN.svg) shows, by its number. */
		shotAlts: Readonly<Record<number, string>>;
	};
	/** The comments and replies that suit a post of each board. */
	comments: Readonly<Record<string, readonly string[]>>;
	replies: Readonly<Record<string, readonly string[]>>;
}[];
/** mulberry32: a seeded random generator, the same on every machine. */
export declare function random(seed: number): {
	next(): number;
	int(min: number, max: number): number;
	pick<T>(list: readonly T[]): T;
	chance(p: number): boolean;
};
/** The board keys whose boards are notice-only, and those that have a write template. */
export declare const NOTICE_ONLY_BOARDS: readonly string[];
export declare const TEMPLATE_BOARDS: readonly string[];
/** A demo board's id from its channel and key ('notice', 'general', 'guides', 'fanart', 'videos', 'bugs', 'staff'). */
export declare function boardId(channel: { index: number }, key: string): number;
/** The seeded tables' columns, by table (what the bench's seed writes too). */
export declare const COLUMNS: Record<string, string[]>;
/** Multi-row INSERTs of `rows` into `table`, each under D1's statement size limit. */
export declare function insertRows(table: string, columns: readonly string[], rows: readonly unknown[][]): string[];
/** Statements that remove every row of the given channels (and their identities whose subject is like `identityPattern`). */
export declare function deleteChannelsSql(channelIds: readonly number[], identityPattern: string): string[];
/** The search index's entries of seeded posts and members (rows as COLUMNS lists them). */
export declare function searchIndexSql(posts: readonly unknown[][], members: readonly unknown[][]): string[];
/** A channel's range of search index rowids. */
export declare const CHANNEL_SPAN: number;
/** The Popular order's hot score in SQL, of the SQL expressions of a post's creation time and counts. */
export declare function hotScoreSql(createdAt: string, likes: string, comments: string): string;
/** The lists' tops of channels whose posts were inserted with their positions and hot scores. */
export declare function listTopsOnlySql(channelIds: readonly number[]): string[];
