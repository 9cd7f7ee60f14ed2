/** What D1 reported for the statements of a piece of work. */
export interface Cost {
	rowsWritten: number;
	rowsRead: number;
	/** The statements' own time in the database (D1's meta.duration), when counted. */
	sqlMs?: number;
	/** The round trips to D1 (a statement or a batch each), when counted. */
	trips?: number;
}

/** A Db that adds up what D1 reports (rows written and read) for every statement run through it, and its round trips. */
export function metered(db: Db, cost: Cost): Db {
	const trip = () => {
		if (cost.trips !== undefined) cost.trips += 1;
	};
	const add = (meta: D1Meta) => {
		cost.rowsWritten += meta.rows_written;
		cost.rowsRead += meta.rows_read;
		if (cost.sqlMs !== undefined) cost.sqlMs += meta.duration;
	};
	const wrap = (statement: D1PreparedStatement): D1PreparedStatement =>
		new Proxy(statement, {
			get(target, key) {
				if (key === 'bind') return (...values: unknown[]) => wrap(target.bind(...values));
				if (key === 'all' || key === 'run')
					return async () => {
						const result = await target.all();
						trip();
						add(result.meta);
						return result;
					};
				if (key === 'first')
					return async (column?: string) => {
						const result = await target.all<Record<string, unknown>>();
						trip();
						add(result.meta);
						const row = result.results[0] ?? null;
						return column === undefined ? row : (row?.[column] ?? null);
					};
				return Reflect.get(target, key);
			},
		});
	return new Proxy(db, {
		get(target, key) {
			if (key === 'prepare') return (sql: string) => wrap(target.prepare(sql));
			if (key === 'batch')
				return async (statements: D1PreparedStatement[]) => {
					const results = await target.batch(statements);
					trip();
					for (const result of results) add(result.meta);
					return results;
				};
			return Reflect.get(target, key);
		},
	});
}

/** The p-th percentile of `values` (the nearest rank), to 0.1. */
export function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!.toFixed(1));
}
