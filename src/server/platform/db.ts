/** Small helpers over D1 shared by the services. */

/** Runs a statement and returns its rows, typed by the caller's row interface. */
export async function all<T>(statement: D1PreparedStatement): Promise<T[]> {
	const result = await statement.all<T>();
	return result.results;
}

export function yn(flag: number): 'Y' | 'N' {
	return flag ? 'Y' : 'N';
}

/** Parses a JSON column that the seed or a service wrote; a broken value is a server fault. */
export function parseJsonColumn(value: string, column: string): unknown {
	try {
		return JSON.parse(value);
	} catch (error) {
		throw new Error(`Column ${column} holds invalid JSON`, { cause: error });
	}
}
