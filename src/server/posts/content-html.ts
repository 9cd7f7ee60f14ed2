/**
 * Renders a stored post body to HTML on the server. Every text is escaped and every URL was
 * checked by StoredDocumentSchema, so the output carries only the markup written here; an image
 * that does not point at this site's uploads or demo files (a row older than that rule) is left
 * out. A stored body that no longer parses renders as one escaped paragraph rather than failing the page.
 */
import { isImageSrc, parseStoredDocument, type Block, type Inline } from '@/schemas/content';
import { youTubePoster } from '@/lib/thumbnails';
import { mentionSegments, type Mention } from '@/lib/mentions';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A text's HTML with its resolved @mentions as links to the members' profiles (src/lib/mentions.ts). */
function textHtml(text: string, mentions: ContentLabels['mentions']): string {
	const escape = (value: string) => escapeHtml(value).replace(/\n/g, '<br>');
	if (!mentions || mentions.list.length === 0) return escape(text);
	return mentionSegments(text, mentions.list)
		.map((segment) =>
			segment.type === 'mention'
				? `<a class="mention" href="${escapeHtml(mentions.profile(segment.userId))}">${escape(segment.text)}</a>`
				: escape(segment.text),
		)
		.join('');
}

function renderInline(inline: Inline, mentions: ContentLabels['mentions']): string {
	// A mention inside a link stays the link's text.
	let html = textHtml(inline.text, inline.link ? undefined : mentions);
	if (inline.bold) html = `<strong>${html}</strong>`;
	if (inline.italic) html = `<em>${html}</em>`;
	if (inline.underline) html = `<u>${html}</u>`;
	if (inline.strike) html = `<s>${html}</s>`;
	if (inline.link) {
		const external = inline.link.startsWith('https://');
		const rel = external ? ' rel="noopener noreferrer nofollow ugc" target="_blank"' : '';
		html = `<a href="${escapeHtml(inline.link)}"${rel}>${html}</a>`;
	}
	return html;
}

const renderInlines = (inlines: Inline[], mentions: ContentLabels['mentions']): string =>
	inlines.map((inline) => renderInline(inline, mentions)).join('');

function renderBlock(block: Block, labels: ContentLabels): string {
	switch (block.type) {
		case 'paragraph':
			return `<p>${renderInlines(block.children, labels.mentions) || '<br>'}</p>`;
		case 'heading':
			return `<h${block.level}>${renderInlines(block.children, labels.mentions)}</h${block.level}>`;
		case 'quote':
			return `<blockquote>${renderInlines(block.children, labels.mentions)}</blockquote>`;
		case 'list': {
			const tag = block.ordered ? 'ol' : 'ul';
			return `<${tag}>${block.items.map((item) => `<li>${renderInlines(item, labels.mentions)}</li>`).join('')}</${tag}>`;
		}
		case 'image': {
			if (!isImageSrc(block.src)) return '';
			const size = block.width && block.height ? ` width="${block.width}" height="${block.height}"` : '';
			const src = escapeHtml(block.src);
			// A link to the image file: the full image without JavaScript, the post page's image viewer
			// (src/page-scripts/image-viewer.ts) with it. Its name is the image's alt text, or says what it does.
			const label = block.alt.trim() ? '' : ` aria-label="${escapeHtml(labels.openImage)}"`;
			return `<figure class="content-image"><a class="content-image-link" href="${src}"${label}><img src="${src}" alt="${escapeHtml(block.alt)}"${size} loading="lazy" decoding="async"></a></figure>`;
		}
		case 'guidance':
			// Never stored by the post services (src/schemas/guidance.ts); a row from elsewhere shows what was written in it, never the hint.
			return block.children.some((inline) => inline.text.trim() !== '') ? `<p>${renderInlines(block.children, labels.mentions)}</p>` : '';
		case 'youtube': {
			const id = escapeHtml(block.videoId);
			// A facade: the player's iframe (about 1 MB of script) loads only when the reader asks for it.
			// Its poster is the video's own picture from YouTube's image host (docs/reference/thumbnails.md).
			const poster = `<img class="youtube-poster" src="${youTubePoster(id, 'hq')}" alt="" width="480" height="360" loading="lazy" decoding="async" referrerpolicy="no-referrer">`;
			const title = labels.videoTitle ? `<span class="youtube-title">${escapeHtml(labels.videoTitle)}</span> ` : '';
			return `<figure class="content-video"><a class="youtube-facade" href="https://www.youtube.com/watch?v=${id}" data-youtube-id="${id}" target="_blank" rel="noopener noreferrer">${poster}${title}<span class="youtube-play" aria-hidden="true"></span><span class="youtube-label">${escapeHtml(labels.playVideo)}</span></a></figure>`;
		}
	}
}

export interface ContentLabels {
	playVideo: string;
	/**
	 * The title a video's facade shows over its poster, as YouTube's player does: the post's title
	 * (the video's own title is not fetched from YouTube; docs/reference/thumbnails.md).
	 */
	videoTitle?: string;
	/** The name of an image's link when the image has no alt text. */
	openImage: string;
	/** The members the body mentions, and where each one's profile is. */
	mentions?: { list: readonly Mention[]; profile: (userId: number) => string } | undefined;
}

export function renderContentHtml(stored: string, labels: ContentLabels): string {
	const document = parseStoredDocument(stored);
	if (!document) return `<p>${escapeHtml(stored)}</p>`;
	return document.blocks
		.map((block) => renderBlock(block, labels))
		.filter(Boolean)
		.join('\n');
}
