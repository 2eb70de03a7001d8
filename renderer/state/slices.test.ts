import { describe, expect, it } from 'vitest';
import type { ConversationSummary, ListedModel } from '../../common/ipc.ts';
import { listedConversations } from './conversationsSlice.ts';
import { importMcpServers } from './importMcpServers.ts';
import { findModel, modelKey, needsVisionPull, selectionOf } from './modelsSlice.ts';

const model = (name: string, vision: 'yes' | 'no' | 'unknown', endpoint = 'ollama'): ListedModel => ({
  provider: endpoint === 'ollama' ? 'ollama' : 'openai',
  name,
  endpoint,
  details: {},
  capabilities: { vision, visionSource: vision === 'unknown' ? 'none' : 'ollama-capabilities', tools: 'unknown', thinking: 'unknown' },
});

describe('models', () => {
  it('offers a pull only when Ollama answered and none of its models sees', () => {
    expect(needsVisionPull([model('llama3', 'no')], [])).toBe(true);
    expect(needsVisionPull([model('llama3', 'no'), model('gemma3', 'yes')], [])).toBe(false);
    expect(needsVisionPull([], [{ endpoint: 'ollama' }])).toBe(false);
    expect(needsVisionPull([model('gpt-4o', 'yes', 'openrouter')], [])).toBe(true);
  });

  it('selects by provider, endpoint and name', () => {
    const models = [model('same', 'yes'), model('same', 'no', 'lmstudio')];
    expect(selectionOf(models[1]!)).toEqual({ provider: 'openai', endpoint: 'lmstudio', name: 'same' });
    expect(findModel(models, { provider: 'openai', endpoint: 'lmstudio', name: 'same' })).toBe(models[1]);
    expect(findModel(models, { provider: 'ollama', name: 'same' })).toBe(models[0]);
    expect(modelKey(models[0]!)).not.toBe(modelKey(models[1]!));
  });
});

describe('conversations', () => {
  const c = (id: string, title: string): ConversationSummary => ({ id, title, createdAt: '', updatedAt: '', messageCount: 1 });
  it('searches titles by every word, case-insensitively, and adds what main found in the text', () => {
    const list = [c('1', 'Quarterly revenue chart'), c('2', 'Holiday photos'), c('3', 'Revenue by region')];
    const shown = (search: string, matches: Parameters<typeof listedConversations>[2] = null, deleting: ConversationSummary | null = null) =>
      listedConversations(list, search, matches, deleting).map((x) => (x.snippet ? `${x.id}:${x.snippet}` : x.id));
    expect(shown('revenue')).toEqual(['1', '3']);
    expect(shown('REVENUE chart')).toEqual(['1']);
    expect(shown('  ')).toHaveLength(3);
    // Main's matches in the text, for the words still in the box (an older answer is not used).
    expect(shown('beach', { query: 'beach', matches: [{ id: '2', inTitle: false, snippet: '…the beach at noon…' }] })).toEqual(['2:…the beach at noon…']);
    expect(shown('beach hut', { query: 'beach', matches: [{ id: '2', inTitle: false, snippet: '…' }] })).toEqual([]);
    // A delete that can still be undone hides the conversation.
    expect(shown('', null, list[0]!)).toEqual(['2', '3']);
  });
});

describe('importMcpServers', () => {
  it('merges an mcpServers file over the current servers', () => {
    const result = importMcpServers({ old: { command: 'a' } }, JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-fs'] } } }));
    expect(result).toEqual({ ok: true, servers: { old: { command: 'a' }, fs: { command: 'npx', args: ['-y', 'server-fs'] } }, inputs: [], added: ['fs'], rejected: [], warnings: [] });
  });

  it('says why a file is not usable', () => {
    expect(importMcpServers({}, 'not json')).toMatchObject({ ok: false, message: expect.stringMatching(/not JSON/) });
    // VS Code's `servers`, with a key Glance does not use: kept in the entry, and named.
    const vscode = importMcpServers({}, JSON.stringify({ servers: { gh: { type: 'http', url: 'https://api.example/mcp', headers: { Authorization: 'Bearer ${input:tok}' }, dev: {} } } }));
    expect(vscode).toMatchObject({ ok: true, added: ['gh'], warnings: ['server "gh", field "dev": not a setting Glance uses; ignored'] });
    expect(vscode.ok && vscode.servers.gh).toMatchObject({ type: 'http', dev: {} });
    expect(importMcpServers({}, JSON.stringify({ mcpServers: { broken: { args: ['x'] } } }))).toMatchObject({ ok: false, message: expect.stringMatching(/^Not an mcpServers file: nothing could be imported: "broken" \(missing/) });
  });
});
