import { describe, expect, it } from 'vitest';
import { namespacedName } from './mcpHub.ts';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('namespacedName', () => {
  it('is server__tool when that is a valid function name', () => {
    expect(namespacedName('gitea', 'get_file_contents', new Map())).toBe('gitea__get_file_contents');
  });

  it('replaces characters OpenAI and Ollama refuse', () => {
    expect(namespacedName('my.server', 'tools/list-all', new Map())).toBe('my_server__tools_list-all');
    expect(namespacedName('ü', 'a b', new Map())).toBe('___a_b');
  });

  it('shortens long names with a stable hash suffix', () => {
    const name = namespacedName('a-very-long-server-name-indeed', 'an_even_longer_tool_name_that_goes_on_and_on', new Map());
    expect(name).toMatch(VALID);
    expect(name).toHaveLength(64);
    expect(name).toBe(namespacedName('a-very-long-server-name-indeed', 'an_even_longer_tool_name_that_goes_on_and_on', new Map()));
  });

  it('keeps names unique when two tools sanitise alike', () => {
    const taken = new Map([[namespacedName('s', 'a.b', new Map()), 1]]);
    const second = namespacedName('s', 'a_b', taken);
    expect(second).not.toBe('s__a_b');
    expect(second).toMatch(/^s__a_b_[a-f0-9]{8}$/);
  });
});
