// How this chat's images go — to the model as pixels, through a vision helper, as local OCR's text,
// or not at all — is main's verdict (`models:route`), asked again whenever what it depends on
// changes here: the model picked, the conversation shown (its own redaction), the settings (the
// vision helper, the policy) and the model list (a capability learned). The drop overlay and the
// composer say what main will do, never a guess of their own.
import type { StoreApi } from 'zustand';
import type { GlanceApi } from '../../common/ipc.ts';
import type { AppState } from './store.ts';

const inputsOf = (s: AppState) => [s.selectedModel, s.chat.conversationId, s.settings?.visionHelper, s.settings?.privacy, s.models] as const;

export function watchImageRoute(store: StoreApi<AppState>, api: Pick<GlanceApi, 'modelsRoute'>): () => void {
  let asked = 0;
  const ask = async () => {
    const s = store.getState();
    const mine = ++asked;
    const model = s.selectedModel;
    const conversationId = s.chat.conversationId;
    const result = await api.modelsRoute({ ...(model ? { model } : {}), ...(conversationId ? { conversationId } : {}) });
    // Only the answer to the latest question counts; a failure (the server away) leaves it unknown.
    if (mine !== asked) return;
    store.setState({ imageRoute: result.ok ? result.value : null });
  };
  const off = store.subscribe((s, before) => {
    const now = inputsOf(s);
    const was = inputsOf(before);
    if (now.every((v, i) => v === was[i])) return;
    void ask();
  });
  // Asked once a model is picked (the model list's load picks one): nothing is asked before first paint.
  if (store.getState().selectedModel) void ask();
  return off;
}
