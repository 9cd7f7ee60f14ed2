/**
 * Image uploads in the rich-text editor: files picked, pasted or dropped are checked, sent with
 * their progress shown, and put in as images where the caret was. The upload code (./upload.ts)
 * is a chunk of its own, loaded when first needed.
 */
import type { ChannelRef } from '@/lib/urls';
import { useCallback, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { $getSelection, $setSelection, type LexicalEditor } from 'lexical';
import { $userId } from '@/stores/user-id';
import { $exportDocument } from './document';
import { $createImageNode } from './media-nodes';
import { $insertBlock, $stillValid } from './selection';
import type { EditorTexts } from './texts';

export const uploadCode = () => import('./upload');

export function interpolate(text: string, values: Record<string, string | number>): string {
	return text.replace(/\{\{(\w+)\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

interface Upload {
	id: number;
	name: string;
	loaded: number;
	total: number;
}

/** The uploads under way and the function that starts more; a refusal is a message, or the form's login or ban flow. */
export function useUploads(
	editor: LexicalEditor,
	{
		channel,
		texts,
		onAuthFailure,
		mediaLimit,
		setMessage,
	}: {
		channel: ChannelRef;
		texts: EditorTexts;
		onAuthFailure: ((error: unknown) => void) | undefined;
		mediaLimit: { max: number; refused: string } | null | undefined;
		setMessage: Dispatch<SetStateAction<string | null>>;
	},
) {
	const [uploads, setUploads] = useState<Upload[]>([]);
	const uploadCounter = useRef(0);
	/** Uploads sent and not yet in the text: they count against a new member's limit as if they were. */
	const sending = useRef(0);
	const onAuthFailureRef = useRef(onAuthFailure);
	onAuthFailureRef.current = onAuthFailure;

	/** A new member's post holds (or will, once the uploads under way land) as many images and videos as it may. */
	const mediaFull = useCallback(
		() =>
			!!mediaLimit &&
			editor.read(() => $exportDocument()).blocks.filter((block) => block.type === 'image' || block.type === 'youtube').length + sending.current >=
				mediaLimit.max,
		[editor, mediaLimit],
	);

	const uploadFiles = useCallback(
		(files: readonly File[]) => {
			// Where the caret is now: the images go there, once the upload code is in and they are sent.
			const at = editor.read(() => $getSelection()?.clone() ?? null);
			uploadCode().then(
				({ IMAGE_MAX_SIZE_LABEL, imageFileProblem, uploadFailure, uploadImage }) => {
					const tooLarge = interpolate(texts['editor.message.imageTooLarge'], IMAGE_MAX_SIZE_LABEL);
					const showProblem = (error: unknown) => {
						const failure = uploadFailure(error);
						if (failure === 'auth') onAuthFailureRef.current?.(error);
						else setMessage(failure === 'too-large' ? tooLarge : texts[failure]);
					};
					for (const file of files) {
						const problem = imageFileProblem(file);
						if (problem || mediaFull()) {
							setMessage(problem === 'invalid' ? texts['editor.message.invalidImage'] : problem ? tooLarge : mediaLimit!.refused);
							continue;
						}
						setMessage(null);
						sending.current += 1;
						const id = ++uploadCounter.current;
						setUploads((list) => [...list, { id, name: file.name, loaded: 0, total: file.size }]);
						uploadImage(channel, file, {
							userId: $userId.get(),
							onProgress: (loaded, total) => setUploads((list) => list.map((upload) => (upload.id === id ? { ...upload, loaded, total } : upload))),
						})
							.then((image) => {
								const alt = file.name.replace(/\.[^.]+$/, '');
								// Discrete: the image is in the text before the upload stops counting as under way.
								editor.update(
									() => {
										const restored = $stillValid(at);
										if (restored) $setSelection(restored);
										$insertBlock($createImageNode({ src: image.src, alt, width: image.width, height: image.height }));
									},
									{ discrete: true },
								);
							})
							.catch(showProblem)
							.finally(() => {
								sending.current -= 1;
								setUploads((list) => list.filter((upload) => upload.id !== id));
							});
					}
				},
				() => setMessage(texts['common.message.error']),
			);
		},
		[editor, texts, channel, setMessage, mediaFull, mediaLimit],
	);
	return { uploads, uploadFiles, mediaFull };
}
