/** Types of the seed generator for the tests that load it. */
export declare const SEED_NOW: number;
export declare function demoSql(): string[];
