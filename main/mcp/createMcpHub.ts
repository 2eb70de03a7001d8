// One way to build the hub for every entry (app, harness, CLI): the same capture, roots, log
// folder and sign-in; the entries differ only in how they ask a person (dialog or terminal).
import { join } from 'node:path';
import { BinaryCapture, type CaptureIntake } from './binaryCapture.ts';
import type { McpClientFeatures } from './clientFeatures.ts';
import type { McpConfig } from './config.ts';
import { McpHub, type McpHubOptions } from './mcpHub.ts';
import { oauthSignIn, type OAuthInteraction, type TokenStore } from './mcpOAuth.ts';
import { messageLimitFor } from './stdioTransport.ts';
import type { StoreLimits } from './storeBudget.ts';

export type CreateMcpHubOptions = {
  config: McpConfig;
  intake: CaptureIntake;
  dataDir: string;
  /** The roots each server is offered (serverRoots.ts), read on every roots/list. */
  roots?: McpClientFeatures['roots'];
  log?: (line: string) => void;
  /** How this entry asks a person: elicitation, `${input:id}`, opening a sign-in page. */
  interaction?: Pick<McpClientFeatures, 'elicit' | 'elicitModes' | 'sample'> & Pick<McpHubOptions, 'resolveInput' | 'inputHint'> & Partial<OAuthInteraction>;
  /** Where OAuth tokens and client registrations live (the secret store). Without it, no sign-in. */
  tokens?: TokenStore;
  parentEnv?: NodeJS.ProcessEnv;
  /** Settings → Limits → Largest file: one stdio message must hold such an image as base64. */
  ingestBytes?: number;
  /** What one result may store (Settings → Limits), read at each result. */
  storeLimits?: () => StoreLimits;
} & Pick<McpHubOptions, 'defaultTimeoutMs' | 'startTimeoutMs' | 'turnWaitMs' | 'onFailure'>;

export function createMcpHub(options: CreateMcpHubOptions): McpHub {
  const { interaction = {} } = options;
  const capture = new BinaryCapture({
    intake: options.intake,
    capturesDir: join(options.dataDir, 'captures'),
    ...(options.log ? { log: options.log } : {}),
    ...(options.storeLimits ? { storeLimits: options.storeLimits } : {}),
  });
  const features: McpClientFeatures = {
    logDir: join(options.dataDir, 'logs', 'mcp'),
    ...(options.roots ? { roots: options.roots } : {}),
    ...(interaction.elicit ? { elicit: interaction.elicit, ...(interaction.elicitModes ? { elicitModes: interaction.elicitModes } : {}) } : {}),
    ...(interaction.sample ? { sample: interaction.sample } : {}),
  };
  const openUrl = interaction.openUrl;
  return new McpHub({
    config: options.config,
    capture,
    features,
    ...(options.log ? { log: options.log } : {}),
    ...(interaction.resolveInput ? { resolveInput: interaction.resolveInput } : {}),
    ...(interaction.inputHint ? { inputHint: interaction.inputHint } : {}),
    ...(options.tokens && openUrl ? { auth: (server, config) => oauthSignIn({ server, config, tokens: options.tokens as TokenStore, openUrl, ...(interaction.signInTimeoutMs ? { signInTimeoutMs: interaction.signInTimeoutMs } : {}), ...(options.log ? { log: options.log } : {}) }) } : {}),
    ...(options.parentEnv ? { parentEnv: options.parentEnv } : {}),
    ...(options.ingestBytes ? { maxMessageBytes: messageLimitFor(options.ingestBytes) } : {}),
    ...(options.onFailure ? { onFailure: options.onFailure } : {}),
    ...(options.defaultTimeoutMs ? { defaultTimeoutMs: options.defaultTimeoutMs } : {}),
    ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
    ...(options.turnWaitMs !== undefined ? { turnWaitMs: options.turnWaitMs } : {}),
  });
}
