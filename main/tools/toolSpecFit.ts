// Tool descriptions within a small context window. Every request carries the schema of every
// tool offered; two MCP servers' tools took 2,854 of a 4k local model's 4,096 tokens before a word
// was typed (docs/tool-descriptions.md has the figures). When the tools would take more than a
// quarter of what a request may use, their descriptions and schemas are shortened: first to their
// opening sentences with short parameter notes, then to one line with the parameters' shape alone.
// The model keeps every tool's name, parameters, types, enums and required fields; only prose goes.
import { estimateTextTokens } from '../../common/tokens.ts';
import type { ToolSpec } from '../models/provider.ts';

/** The share of a request's budget the tool descriptions may take before they are shortened. */
const TOOL_SHARE = 0.25;

/** What one tool's spec costs in a request (its JSON, as the providers send it). */
export function toolSpecTokens(spec: ToolSpec): number {
  return estimateTextTokens(JSON.stringify(spec));
}

export type FittedSpecs = {
  specs: ToolSpec[];
  tokens: number;
  /** Set when the specs were shortened: what they cost as the tools gave them. */
  fullTokens?: number;
};

/**
 * The specs to send for a request that may use `budget` tokens (null: the window is unknown, and
 * nothing is shortened). Shortening stops at the first level that fits the share.
 */
export function fitToolSpecs(specs: readonly ToolSpec[], budget: number | null): FittedSpecs {
  const cost = (list: readonly ToolSpec[]) => list.reduce((n, s) => n + toolSpecTokens(s), 0);
  const full = cost(specs);
  if (budget === null || full <= budget * TOOL_SHARE) return { specs: [...specs], tokens: full };
  let best: ToolSpec[] = [...specs];
  let tokens = full;
  for (const level of LEVELS) {
    best = specs.map((s) => shortSpec(s, level));
    tokens = cost(best);
    if (tokens <= budget * TOOL_SHARE) break;
  }
  return tokens < full ? { specs: best, tokens, fullTokens: full } : { specs: [...specs], tokens: full };
}

type Level = { description: number; paramDescription: number | null };
/** Shorter at each step: the tool's description (characters), its parameters' notes (null: none). */
const LEVELS: readonly Level[] = [
  { description: 240, paramDescription: 80 },
  { description: 100, paramDescription: null },
];

/** Keys that are prose or bookkeeping for people, not the shape of the arguments. */
const DROPPED = new Set(['$schema', '$id', '$comment', 'title', 'examples', 'example', 'markdownDescription']);

function shortSpec(spec: ToolSpec, level: Level): ToolSpec {
  return { name: spec.name, description: shortText(spec.description, level.description), parameters: shortSchema(spec.parameters, level, 0) as Record<string, unknown> };
}

/** The schema without prose: nested property notes shortened (or gone), the structure kept. */
function shortSchema(node: unknown, level: Level, depth: number): unknown {
  if (Array.isArray(node)) return node.map((n) => shortSchema(n, level, depth + 1));
  if (!node || typeof node !== 'object' || depth > 32) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key)) continue;
    // zod's .int() writes ±2^53−1 as bounds: no bound at all, in 20 characters.
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER) continue;
    if (key === 'additionalProperties' && value === false && level.paramDescription === null) continue;
    if (key === 'description' && typeof value === 'string') {
      if (level.paramDescription !== null) out[key] = shortText(value, level.paramDescription);
      continue;
    }
    // `properties` maps names to schemas: the names are the tool's, never dropped.
    if (key === 'properties' && value && typeof value === 'object' && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, shortSchema(schema, level, depth + 1)]));
      continue;
    }
    out[key] = shortSchema(value, level, depth + 1);
  }
  return out;
}

/** The opening of a text: its first paragraph, cut after the last whole sentence (or word) that fits. */
export function shortText(text: string, max: number): string {
  const para = text.trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ');
  if (para.length <= max) return para;
  const head = para.slice(0, max);
  const sentence = head.search(/[.!?](?=\s)[^.!?]*$/);
  if (sentence >= max * 0.4) return head.slice(0, sentence + 1);
  const word = head.lastIndexOf(' ');
  return `${head.slice(0, word > max * 0.5 ? word : max - 1).trimEnd()}…`;
}
