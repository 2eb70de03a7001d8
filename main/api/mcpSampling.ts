// MCP sampling (architecture §6): a server asks for a completion; it goes through the user's chosen
// model (the default from Settings), only after the person allows it in a dialog that shows
// what will be sent. Text parts only: images or audio a server puts in a sampling request
// are left out, and the dialog says so.
import type { CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import type { ModelResolver } from '../core/modelResolver.ts';
import type { SamplingRequest } from '../mcp/clientFeatures.ts';
import type { ModelMessage } from '../models/provider.ts';
import type { McpQuestions } from './mcpQuestions.ts';

/** Longest answer a server gets back, whatever maxTokens it asked for (characters). */
const MAX_ANSWER_CHARS = 20_000;

export function mcpSampler(models: () => ModelResolver, questions: McpQuestions): (request: SamplingRequest, signal: AbortSignal) => Promise<CreateMessageResult> {
  return async ({ server, params }, signal) => {
    let leftOut = 0;
    const messages: ModelMessage[] = [];
    if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
    for (const m of params.messages) {
      const parts = Array.isArray(m.content) ? m.content : [m.content];
      const text = parts.map((p) => (p.type === 'text' ? p.text : (leftOut++, ''))).filter(Boolean).join('\n');
      if (text) messages.push({ role: m.role === 'assistant' ? 'assistant' : 'user', content: text });
    }
    const preview = messages.map((m) => `${m.role}: ${m.content}`).join('\n').slice(0, 2000);
    const consent = await questions.consent(server, `"${server}" asks to use your model with this request:\n\n${preview}${leftOut ? `\n\n(${leftOut} image or audio part(s) would be left out.)` : ''}\n\nAllow it?`, signal);
    if (!consent) throw new Error('The user declined the sampling request.');
    const resolver = models();
    const choice = await resolver.choiceFor(await resolver.selectionOrDefault(undefined));
    let text = '';
    let stop: CreateMessageResult['stopReason'] = 'endTurn';
    for await (const event of choice.provider.stream({ model: choice.model, messages, ...(params.temperature !== undefined ? { temperature: params.temperature } : {}) }, { signal })) {
      if (event.type === 'text') text += event.delta;
      if (event.type === 'done' && event.reason === 'length') stop = 'maxTokens';
      if (text.length > MAX_ANSWER_CHARS) {
        text = text.slice(0, MAX_ANSWER_CHARS);
        stop = 'maxTokens';
        break;
      }
    }
    return { role: 'assistant', content: { type: 'text', text }, model: choice.model, stopReason: stop };
  };
}
