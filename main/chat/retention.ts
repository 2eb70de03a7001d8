import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConversationStore } from './conversationStore.ts';
import { allMessages } from './versions.ts';
import type { DraftStore } from './draftStore.ts';
import type { FileAttachmentStore } from '../images/attachmentStore.ts';

/**
 * Attachment retention (Settings → attachments.retentionDays): an image that no stored
 * conversation refers to and that is older than the retention period is deleted; an original
 * goes with the last image made from it. Referenced images are never deleted, so a
 * conversation's thumbnails and `show_attachment` keep working as long as it exists. It lives
 * with the conversations because what counts as referenced is their messages' attachment ids;
 * entries run it through the composition (`Services.sweepAttachments`).
 */
export async function sweepAttachments(options: {
  attachments: FileAttachmentStore;
  conversations: ConversationStore;
  /** Images waiting in a draft are kept too. */
  drafts?: DraftStore;
  dataDir: string;
  retentionDays: number | null;
  now?: Date;
}): Promise<{ removed: string[]; kept: number }> {
  if (options.retentionDays === null) return { removed: [], kept: -1 };
  const cutoff = (options.now ?? new Date()).getTime() - options.retentionDays * 86_400_000;
  const referenced = new Set<string>(await options.drafts?.attachmentIds().catch(() => []));
  for (const summary of await options.conversations.list()) {
    const c = await options.conversations.get(summary.id).catch(() => undefined);
    for (const m of c ? allMessages(c) : []) {
      if (m.role === 'user' || m.role === 'delivery') for (const id of m.attachmentIds) referenced.add(id);
      if (m.role === 'tool') for (const id of m.attachmentIds ?? []) referenced.add(id);
    }
  }
  const removed: string[] = [];
  let kept = 0;
  for (const info of await options.attachments.list()) {
    if (referenced.has(info.id) || Date.parse(info.createdAt) > cutoff) {
      kept++;
      continue;
    }
    if (await options.attachments.remove(info.id)) {
      removed.push(info.id);
      // Captures kept before originals moved into the store.
      await rm(join(options.dataDir, 'originals', `${info.id}.png`), { force: true });
    }
  }
  // Originals live as long as some stored image was made from them.
  const inUse = new Set<string>();
  for (const info of await options.attachments.list()) if (info.original) inUse.add(info.original.sha256);
  await options.attachments.sweepOriginals(inUse);
  return { removed, kept };
}
