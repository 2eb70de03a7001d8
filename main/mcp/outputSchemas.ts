// A tool that declares an outputSchema must return structuredContent that matches it (the
// spec: clients SHOULD validate). Compiled once per tools/list with the SDK's Ajv validator.
import type { Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { McpToolOutcome } from './binaryCapture.ts';
import { errorMessage } from '../errors.ts';

type Validate = (value: unknown) => { valid: boolean; errorMessage?: string | undefined };
const validators = new AjvJsonSchemaValidator();

export class OutputSchemas {
  #byTool = new Map<string, Validate>();

  compile(tools: readonly SdkTool[], log?: (line: string) => void): void {
    this.#byTool.clear();
    for (const tool of tools) {
      if (!tool.outputSchema) continue;
      try {
        this.#byTool.set(tool.name, validators.getValidator(tool.outputSchema as never));
      } catch (error) {
        log?.(`the output schema of ${tool.name} does not compile (${errorMessage(error)}); its results are not checked`);
      }
    }
  }

  /** The outcome as is, or marked not ok with the reason first in its text (the content stays readable). */
  check(tool: string, origin: string, raw: { structuredContent?: unknown; isError?: boolean | undefined }, outcome: McpToolOutcome, log?: (line: string) => void): McpToolOutcome {
    const validate = this.#byTool.get(tool);
    if (!validate || raw.isError === true) return outcome;
    let problem: string | undefined;
    if (raw.structuredContent === undefined) problem = 'it declares an output schema but returned no structured content';
    else {
      const result = validate(raw.structuredContent);
      if (!result.valid) problem = `its structured result does not match its output schema (${result.errorMessage ?? 'invalid'})`;
    }
    if (!problem) return outcome;
    log?.(`${origin}: ${problem}`);
    return { ...outcome, ok: false, text: `[The result of ${origin} is not reliable: ${problem}.]\n${outcome.text}`, notes: [...outcome.notes, problem] };
  }
}
