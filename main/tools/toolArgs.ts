// Built-in tools declare their arguments once, as a zod schema: the JSON Schema the model is
// offered is generated from it (z.toJSONSchema), and the arguments the model sends are checked
// against the same schema, so the two cannot drift. A model's bad arguments are a tool error
// it can read and correct, never a throw.
import { z } from 'zod';
import { formatZodIssues } from '../../common/zodIssues.ts';

/** The JSON Schema for a tool's `parameters` (no `$schema` key: some servers reject it). */
export function toolParameters(schema: z.ZodObject): Record<string, unknown> {
  const { $schema: _omit, ...json } = z.toJSONSchema(schema) as Record<string, unknown>;
  return json;
}

export function parseToolArgs<S extends z.ZodObject>(tool: string, schema: S, args: Record<string, unknown>): { ok: true; args: z.output<S> } | { ok: false; text: string } {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data };
  return { ok: false, text: `${tool} was called with arguments it cannot use: ${formatZodIssues(parsed.error)}. Nothing was done; call it again with the arguments its schema names.` };
}

/** x, y, width, height in the pixels of an image as the model was shown it. */
export const RegionArgs = {
  x: z.number().describe('Left edge, in pixels of the image as shown to you.'),
  y: z.number().describe('Top edge, in pixels of the image as shown to you.'),
  width: z.number().describe('Width in pixels of the image as shown to you.'),
  height: z.number().describe('Height in pixels of the image as shown to you.'),
};

/** An attachment id as the model finds it in an image label or stub. */
export const ImageIdArg = z.string().describe('Image id from an image label, e.g. "3f2a9c0d1e4b5a6c". Default: the most recent image shown to you.');
