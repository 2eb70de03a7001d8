// `glance mcp serve` (architecture §14, §10): the server's parts over the one composition
// (core/composeServices.ts, built by the CLI like every command), then stdio or streamable HTTP.
// Retention runs as the app's does at launch, so captures made for callers expire like its own.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ModelSelection } from '../../common/settings.ts';
import type { ScreenCapturer } from '../capture/screenCapturer.ts';
import type { Services } from '../core/composeServices.ts';
import { CaptureShelf, type CaptureBudget } from './captureShelf.ts';
import { STDIO_RESOURCE_BASE64 } from './captureResource.ts';
import { serialCapturer } from './captureTools.ts';
import { MAX_STDIO_REQUEST, StdioLines } from './stdioLines.ts';
import { createSessionServer, type SessionDeps } from './glanceMcpServer.ts';
import { serveHttp, type HttpServeOptions, type HttpServing } from './httpServe.ts';
import { imageGate, type RedactPolicy } from './serverImages.ts';
import type { Describer } from './textTools.ts';
import { errorMessage } from '../errors.ts';
import { windowTextFor } from '../accessibility/platformWindowText.ts';

type ServeOptions = {
  capturer: ScreenCapturer;
  redact: RedactPolicy;
  version: string;
  /** Capture resources give the original as kept, its secrets in the clear (--serve-originals); default: hidden regions filled. */
  serveOriginals?: boolean;
  /** The model describe asks (--model); default Glance's settings, local first. */
  visionModel?: ModelSelection;
  /** How much the captures made for callers may hold (--keep-captures-mb, --keep-captures-hours). */
  captureBudget?: CaptureBudget;
};

/** What every session shares: one capturer (calls queue), one gate, one shelf, one OCR reader. */
function sessionDeps(services: Services, options: ServeOptions): SessionDeps {
  const store = services.attachments;
  return {
    capturer: serialCapturer(options.capturer),
    gate: imageGate({ intake: services.intake, egress: services.egress, policy: options.redact, ...(options.serveOriginals ? { serveOriginals: true } : {}) }),
    store,
    shelf: new CaptureShelf(store, { ...(options.captureBudget ? { budget: options.captureBudget } : {}), log: services.log }),
    limits: services.limits,
    ocr: services.ocr,
    describe: visionDescriber(services, options.visionModel),
    version: options.version,
    // The composition's reader (the secret rules at hand), and its shelf.
    windowText: services.windowText ?? windowTextFor(),
    windowTexts: services.windowTexts,
  };
}

/** describe's model: Glance's configured one that sees (the default model, else the first local one that sees, else the vision helper). */
function visionDescriber(services: Services, selection: ModelSelection | undefined): Describer {
  return async (info, question, signal) => {
    let seer;
    try {
      seer = (await services.models.routeFor(selection)).seer;
    } catch (error) {
      return { ok: false, message: `No vision model is reachable: ${services.scrubSecrets(errorMessage(error))}` };
    }
    if (!seer) return { ok: false, message: "None of Glance's configured models can see images: set a default model that sees, or a vision helper, in Glance's Settings." };
    // Out through the egress: the copy made for the describing model from the original.
    const payload = await services.egress.image(info.id, seer.target, { signal });
    if (!payload.ok) return { ok: false, message: `The capture could not be prepared for ${seer.model}: ${payload.message}` };
    let text = '';
    try {
      for await (const event of seer.provider.stream({ model: seer.model, messages: [{ role: 'user', content: question, images: [{ data: payload.data, mime: payload.info.mime }] }] }, { signal })) {
        if (event.type === 'text') text += event.delta;
      }
    } catch (error) {
      if (signal.aborted) throw error;
      return { ok: false, message: `${seer.model} could not answer: ${services.scrubSecrets(errorMessage(error))}` };
    }
    return text.trim() ? { ok: true, text: text.trim(), model: seer.model } : { ok: false, message: `${seer.model} gave an empty answer.` };
  };
}

function sweep(services: Services): void {
  void services.sweepAttachments().catch((error: unknown) =>
    services.log(`retention sweep failed: ${errorMessage(error)}`),
  );
}

/**
 * stdio: one session for the process; resolves when the client closes stdin. Lines over
 * MAX_STDIO_REQUEST are refused in words (stdioLines.ts); resources are fitted under the client's buffer.
 */
export async function serveStdio(
  services: Services,
  options: ServeOptions,
  streams: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; warn?: (line: string) => void } = {},
): Promise<void> {
  sweep(services);
  const deps = { ...sessionDeps(services, options), resourceCap: STDIO_RESOURCE_BASE64 };
  const server = createSessionServer(deps);
  const stdin = (streams.stdin ?? process.stdin) as NodeJS.ReadStream;
  const warn = streams.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const lines = new StdioLines({
    onOversized: ({ bytes, id }) => {
      const message = `Request refused: ${bytes} bytes on one line, over the ${MAX_STDIO_REQUEST} bytes glance mcp serve reads (tool arguments are small; send images by path or id, not inline). The server goes on.`;
      warn(`glance: ${message}`);
      void transport.send({ jsonrpc: '2.0', id: id as string | number, error: { code: -32600, message } }).catch(() => undefined);
    },
  });
  stdin.pipe(lines);
  const transport = new StdioServerTransport(lines as unknown as NodeJS.ReadStream, (streams.stdout ?? process.stdout) as NodeJS.WriteStream);
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The client went away: the SDK's transport does not notice an ended stdin by itself.
    stdin.once('end', () => void server.close().finally(resolve));
  });
  await server.connect(transport);
  await closed;
}

/** Streamable HTTP on loopback: a session per client, behind the bearer token. */
export async function startHttp(services: Services, options: ServeOptions & Omit<HttpServeOptions, 'log'>): Promise<HttpServing> {
  sweep(services);
  const deps = sessionDeps(services, options);
  const { host, port, token, maxSessions, idleMs } = options;
  return serveHttp(() => createSessionServer(deps), { host, port, token, log: services.log, ...(maxSessions ? { maxSessions } : {}), ...(idleMs ? { idleMs } : {}) });
}
