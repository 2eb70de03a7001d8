import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultSettings, OLLAMA_ENDPOINT, type Settings } from '../../common/settings.ts';
import { parseSettings } from '../settings/settingsSchema.ts';

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
    const parsed = parseSettings(JSON.parse(text));
    if (parsed.ok) return { settings: parsed.settings };
    return { settings: defaultSettings(), warning: `ignoring ${join(dataDir, 'settings.json')}: ${parsed.message}` };
  } catch (error) {
    return { settings: defaultSettings(), warning: `ignoring ${join(dataDir, 'settings.json')}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The Ollama host the CLI talks to: --base-url, then OLLAMA_HOST, then the app's setting. */
export function cliOllamaHost(flag: string | undefined, env: NodeJS.ProcessEnv, settings: Settings): string {
  return flag ?? env.OLLAMA_HOST ?? settings.providers.ollama.host;
}

/** A vision verdict the user declared in the app's Settings for a local (Ollama) model. */
export function declaredOllamaVision(settings: Settings, model: string): 'yes' | 'no' | undefined {
  const declared = settings.vision[OLLAMA_ENDPOINT];
  return declared?.[model] ?? declared?.[model.replace(/:latest$/, '')];
}
