// Redaction for this conversation (Settings → Privacy holds the default): stored in the settings'
// privacy.conversations by conversation id, so main's engine applies it to every model of a turn.
import type { RedactPolicy } from '../../common/privacy.ts';
import { useApp } from '../state/store.ts';

const LABELS: Record<RedactPolicy, string> = { remote: 'for remote models', always: 'always', never: 'never' };

export function RedactionChoice() {
  const conversationId = useApp((s) => s.chat.conversationId);
  const privacy = useApp((s) => s.settings?.privacy);
  const save = useApp((s) => s.saveSettings);
  if (!conversationId || !privacy) return null;
  const own = privacy.conversations[conversationId];
  const choose = (value: string) => {
    const conversations = { ...privacy.conversations };
    if (value === '') delete conversations[conversationId];
    else conversations[conversationId] = value as RedactPolicy;
    void save({ privacy: { ...privacy, conversations } });
  };
  return (
    <select
      className="redaction-choice small"
      aria-label="Hide secrets in this chat"
      title="Hide secrets in images before a model gets them, in this conversation"
      value={own ?? ''}
      onChange={(e) => choose(e.target.value)}
    >
      <option value="">Hide secrets: as in Settings ({LABELS[privacy.redact]})</option>
      <option value="always">Hide secrets: always</option>
      <option value="remote">Hide secrets: for remote models</option>
      <option value="never">Hide secrets: never</option>
    </select>
  );
}
