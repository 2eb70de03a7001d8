import { describe, expect, it } from 'vitest';
import type { ContextEstimate } from '../../common/ipc.ts';
import { contextParts, contextWarning } from './contextWords.ts';

const estimate = (over: Partial<ContextEstimate>): ContextEstimate => ({
  estimatedTokens: 4500,
  systemTokens: 300,
  historyTokens: 0,
  draftTokens: 12,
  imageTokens: 0,
  contextWindow: 4096,
  budget: 3072,
  overBudget: true,
  maxContext: 4096,
  source: 'ollama-model-info',
  droppedTurns: 0,
  numCtx: 4096,
  tools: { tokens: 3900, bytes: 14_000, bySource: [] },
  ...over,
});

describe('contextWarning', () => {
  it('names the part that takes the room, against the window, and what to do', () => {
    expect(contextWarning(estimate({}))).toBe(
      'Tool descriptions take 3,900 of 4,096 tokens, so this message will not fit with room for an answer: switch some tools off for this chat (Tools), or pick a model with a larger context.',
    );
    expect(contextWarning(estimate({ tools: { tokens: 10, bytes: 40, bySource: [] }, imageTokens: 5000 }))).toMatch(/^Images take 5,000 of 4,096 tokens.*: remove some images, or/);
    expect(contextWarning(estimate({ tools: undefined, draftTokens: 6000 }))).toMatch(/^This message takes 6,000 of 4,096 tokens.*: shorten it, or/);
    // A model whose server does not say its context runs with its Modelfile's num_ctx: that can be raised.
    expect(contextWarning(estimate({ source: 'ollama-default', maxContext: null }))).toMatch(/or raise the model's context \(num_ctx in its Modelfile\)\.$/);
  });

  it('says nothing for an empty box whose conversation so far is what fills the window (a long message sent and answered), but does when the tools alone fill it', () => {
    const answered = estimate({ tools: undefined, draftTokens: 0, historyTokens: 5000 });
    expect(contextWarning(answered)).toBeNull();
    expect(contextWarning({ ...answered, draftTokens: 8 })).toMatch(/^The conversation so far takes 5,000 of 4,096 tokens.*: start a new chat, or/);
    expect(contextWarning(estimate({ draftTokens: 0 }))).toMatch(/^Tool descriptions take 3,900/);
  });

  it('says nothing when the request fits, or when the window is not known', () => {
    expect(contextWarning(estimate({ overBudget: false }))).toBeNull();
    expect(contextWarning(estimate({ contextWindow: null, budget: null }))).toBeNull();
  });

  it('lists tool descriptions only when tools are offered', () => {
    expect(contextParts(estimate({ tools: undefined })).map((p) => p.name)).not.toContain('Tool descriptions');
    expect(contextParts(estimate({})).map((p) => p.name)).toEqual(['The system prompt', 'Tool descriptions', 'The conversation so far', 'This message', 'Images']);
  });
});
