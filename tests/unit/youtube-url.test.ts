import { describe, expect, it } from 'vitest';
import { youTubeVideoId } from '@/lib/youtube-url';

const ID = 'dQw4w9WgXcQ';

describe('youTubeVideoId', () => {
	it.each([
		`https://www.youtube.com/watch?v=${ID}`,
		`https://youtube.com/watch?v=${ID}`,
		`http://www.youtube.com/watch?v=${ID}`,
		`https://m.youtube.com/watch?v=${ID}`,
		`https://music.youtube.com/watch?v=${ID}&list=RDAMVM${ID}`,
		`https://www.youtube.com/watch?v=${ID}&t=42s`,
		`https://www.youtube.com/watch?feature=shared&v=${ID}`,
		`https://www.youtube.com/watch?v=${ID}&list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&index=3`,
		`https://youtu.be/${ID}`,
		`https://youtu.be/${ID}?t=42`,
		`https://youtu.be/${ID}?si=AbCdEfGhIjKlMnOp`,
		`https://www.youtube.com/shorts/${ID}`,
		`https://youtube.com/shorts/${ID}?feature=share`,
		`https://www.youtube.com/embed/${ID}`,
		`https://www.youtube.com/embed/${ID}?start=30`,
		`https://www.youtube-nocookie.com/embed/${ID}`,
		`https://www.youtube.com/live/${ID}?si=xyz`,
		`https://www.youtube.com/v/${ID}`,
		`www.youtube.com/watch?v=${ID}`,
		`youtu.be/${ID}`,
		`  https://youtu.be/${ID}  `,
		`HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`,
	])('reads the id of %s', (link) => {
		expect(youTubeVideoId(link)).toBe(ID);
	});

	it.each([
		'',
		'   ',
		ID,
		'https://example.com/watch?v=dQw4w9WgXcQ',
		'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
		'https://evilyoutube.com/watch?v=dQw4w9WgXcQ',
		'https://www.youtube.com/watch?v=short',
		'https://www.youtube.com/watch?v=dQw4w9WgXcQQ',
		'https://www.youtube.com/watch?v=dQw4w9WgX%3C',
		'https://www.youtube.com/watch',
		'https://www.youtube.com/channel/UC38IQsAvIsxxjztdMZQtwHA',
		'https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG',
		'https://youtu.be/',
		'https://youtu.be/dQw4w9WgXcQ/extra',
		'https://www.youtube.com/shorts/',
		'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
		'javascript://youtu.be/dQw4w9WgXcQ',
		'data:text/html,https://youtu.be/dQw4w9WgXcQ',
		'ftp://youtu.be/dQw4w9WgXcQ',
		'https://user:pass@youtu.be/dQw4w9WgXcQ',
		'https://youtu.be:8443/dQw4w9WgXcQ',
		'https://youtu.be/dQw4w9WgXcQ onerror=alert(1)',
		'https://www.youtube.com/watch?v=<script>',
	])('refuses %j', (link) => {
		expect(youTubeVideoId(link)).toBeNull();
	});
});
