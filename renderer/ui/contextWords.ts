// The Context meter's words: what fills the request, and — before a send that will not fit — what
// takes the room and what the person can do about it.
import type { ContextEstimate } from '../../common/ipc.ts';
import { groupDigits } from '../../common/imageFormat.ts';

type Part = { name: string; plural: boolean; tokens: number; remedy: string };

/** The request's parts, as the breakdown lists them (tool descriptions only when tools are offered). */
export function contextParts(e: ContextEstimate): Part[] {
  return [
    { name: 'The system prompt', plural: false, tokens: e.systemTokens, remedy: 'switch off MCP servers whose instructions are long' },
    ...(e.tools ? [{ name: 'Tool descriptions', plural: true, tokens: e.tools.tokens, remedy: 'switch some tools off for this chat (Tools)' }] : []),
    { name: 'The conversation so far', plural: false, tokens: e.historyTokens, remedy: 'start a new chat' },
    { name: 'This message', plural: false, tokens: e.draftTokens, remedy: 'shorten it' },
    { name: 'Images', plural: true, tokens: e.imageTokens, remedy: 'remove some images' },
  ];
}

/**
 * Null when the next request fits (with older turns left out if need be). Else one sentence: the
 * part that takes the most, against the window, and the two ways out.
 */
export function contextWarning(e: ContextEstimate): string | null {
  if (!e.overBudget || e.contextWindow === null) return null;
  // An empty box is no message: after a long one was sent and answered, the conversation so far is
  // not "this message". Warned then only when what every request carries leaves no room on its own.
  if (e.draftTokens === 0 && e.budget !== null && e.systemTokens + (e.tools?.tokens ?? 0) <= e.budget) return null;
  const biggest = contextParts(e).reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const n = groupDigits;
  // Glance asks Ollama for all of a model's context it reports; one that reports none runs with its Modelfile's.
  const larger = e.source === 'ollama-default' ? "raise the model's context (num_ctx in its Modelfile)" : 'pick a model with a larger context';
  return `${biggest.name} ${biggest.plural ? 'take' : 'takes'} ${n(biggest.tokens)} of ${n(e.contextWindow)} tokens, so this message will not fit with room for an answer: ${biggest.remedy}, or ${larger}.`;
}
