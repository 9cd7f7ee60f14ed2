/**
 * The demo seed inserts a channel's row with the columns its file sets: the apply service's list
 * (CHANNEL_COLUMNS of src/server/channels/channel-rows.ts), not a copy of it. A column added there
 * is seeded from the file's row with no second list to keep in step.
 */
import { describe, expect, it } from 'vitest';
import { COLUMNS } from '../../scripts/seed/demo.mjs';
import { CHANNEL_COLUMNS } from '@/server/channels/channel-rows';

describe('the demo seed', () => {
	it("inserts every column of a channel that its file sets, in the apply service's order, then its counters", () => {
		expect(COLUMNS['channels']).toEqual(['id', ...CHANNEL_COLUMNS, 'listed_count', 'content_version', 'created_at']);
	});
});
