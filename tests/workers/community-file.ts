/** A community file for a new community, as an operator would write one: the demo's Pixel Farm file at another address. */
import { ChannelFileSchema, type ChannelFile } from '@/server/channels/channel-file';
import farm from '../../channels/pixelfarm-main.json';

/** The Pixel Farm file as a new community at pixelfarm/`slug`, titled "Farm `slug`", with no fixed ids. */
export function newCommunity(slug: string): ChannelFile {
	const file = ChannelFileSchema.parse(structuredClone(farm));
	delete file.id;
	file.slug = slug;
	file.header.title = `Farm ${slug}`;
	for (const board of file.boards) {
		delete board.id;
		for (const category of board.categories) delete category.id;
	}
	const strip = (node: { id?: number | undefined; children?: { id?: number | undefined }[] }) => {
		delete node.id;
		node.children?.forEach(strip);
	};
	file.tree.forEach(strip);
	return file;
}
