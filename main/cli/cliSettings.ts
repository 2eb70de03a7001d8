import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultSettings, type Settings } from '../../common/settings.ts';
import { parseJsonc } from '../../common/jsonc.ts';
import { parseSettings } from '../settings/settingsSchema.ts';
import { errorMessage } from '../errors.ts';

/**
 * The app's settings as the CLI reads them: read-only (the CLI never rewrites the app's
 * file), defaults when there is none, and a warning instead of a failure when it is broken.
 */
export async function readCliSettings(dataDir: string): Promise<{ settings: Settings; warning?: string }> {
  let text: string;
  try {
    text = await readFile(join(dataDir, 'settings.json'), 'utf8');
  } catch {
    return { settings: defaultSettings() };
  }
  try {
    const parsed = parseSettings(parseJsonc(text));
    // Field by field: a bad field keeps its default and is named; privacy and tool approval still apply.
    if (parsed.ok && parsed.salvaged?.length) return { settings: parsed.settings, warning: `${join(dataDir, 'settings.json')}: ${parsed.warnings.join('; ')}` };
    if (parsed.ok) return { settings: parsed.settings };
    return { settings: defaultSettings(), warning: `ignoring ${join(dataDir, 'settings.json')}: ${parsed.message}` };
  } catch (error) {
    return { settings: defaultSettings(), warning: `ignoring ${join(dataDir, 'settings.json')}: ${errorMessage(error)}` };
  }
}
