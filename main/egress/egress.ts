// THE way out (architecture §3b "One way out"): whatever leaves this computer for a model provider or
// an MCP client — a request's images, text made from an image, window titles and app names, a capture
// resource — is handed over here, for one target at a time. What is hidden belongs to the original:
// an image goes as the copy the door makes *for that target* from its original (its hidden regions
// filled under the target's policy), never as a copy made for another model — a copy fitted for a
// model on this computer holds every secret in the clear. Providers get bytes from here only; the
// MCP server likewise. `WAYS_OUT` lists every way, and test/architecture/egress.test.ts holds the
// code to it.
import type { AttachmentInfo } from '../../common/images.ts';
import type { ImageIntake } from '../images/imageIntake.ts';
import type { Admitted, AttachmentStore, ImageTarget, TextTarget } from '../images/types.ts';

/** Every way bytes or text made from the screen leave for a model or an MCP client, and where it passes the egress. */
export const WAYS_OUT = [
  { way: "a request's images (attachments, tool deliveries, marked copies)", through: 'Egress.image', from: 'main/chat/buildMessages.ts' },
  { way: "a vision helper's side call (describe, analyze_image)", through: 'Egress.image', from: 'main/chat/turnLoop.ts' },
  { way: 'a zoom or a region read (zoom_image, read_text, mcp serve zoom/read_text)', through: 'ImageIntake.admit(read): original with its regions filled', from: 'main/images/imageIntake.ts' },
  { way: 'text made from an image (read_text, a blind model’s transcript, describe)', through: 'Egress.text', from: 'main/tools/readText.ts' },
  { way: "a window's own text, read from its accessibility tree (screenshot_desktop, mcp serve capture_screen)", through: 'Egress.text', from: 'main/tools/screenshotDesktop.ts' },
  { way: 'window titles and app names (list_windows, a capture’s label, mcp serve)', through: 'Egress.windowFacts', from: 'main/tools/listWindows.ts' },
  { way: "mcp serve's capture and zoom results (the copy just made for the caller)", through: 'Egress.made', from: 'main/mcpServer/serverImages.ts' },
  { way: "mcp serve's glance://captures resources", through: 'Egress.original (regions filled; as kept only with --serve-originals)', from: 'main/mcpServer' },
] as const;

/** Why an image did not go when it is simply not stored any more. */
export const GONE = 'no longer available';

export type SentImage = { ok: true; info: AttachmentInfo; data: Uint8Array };
export type NotSent = { ok: false; id: string; message: string };

export class Egress {
  readonly #intake: ImageIntake;
  readonly #store: AttachmentStore;

  constructor(deps: { intake: ImageIntake; store: AttachmentStore }) {
    this.#intake = deps.intake;
    this.#store = deps.store;
  }

  /**
   * Image `id` as `target` may get it: the door's copy for that target, made from the original with
   * its hidden regions filled (once per target; later calls find it made). `made` names copies the
   * door already made for this very target in this turn (an attachment with "Show anyway", a tool's
   * capture): those go as they are. An image that cannot be checked is not sent, and says why.
   */
  async image(id: string, target: ImageTarget, options: { made?: ReadonlySet<string>; signal?: AbortSignal } = {}): Promise<SentImage | NotSent> {
    const info = await this.#store.info(id);
    if (!info) return { ok: false, id, message: GONE };
    if (options.made?.has(id)) {
      const got = await this.#store.get(id);
      return got ? this.#handOver(got.info, got.data, target) : { ok: false, id, message: GONE };
    }
    const fitted = await this.#intake.admit({ attachmentId: id }, target, 'user', options.signal ? { signal: options.signal } : {});
    if (!fitted.ok) return { ok: false, id, message: fitted.message };
    const data = fitted.payload ?? (await this.#store.get(fitted.attachment.id))?.data;
    if (!data) return { ok: false, id, message: GONE };
    // The copy carries this use's name, origin and window (the record keeps the first ones).
    return this.#handOver({ ...fitted.attachment, name: info.name, origin: info.origin, ...(info.window ? { window: info.window } : {}) }, data, target);
  }

  /**
   * The copy the door has just made for `target` (`admitted`, for this very target: a capture, a
   * zoom's crop), as made — its bytes travel with it, not read back from the store — with its
   * window's title and app as the target may read them.
   */
  async made(admitted: Admitted, target: TextTarget): Promise<SentImage | NotSent> {
    const { attachment } = admitted;
    const data = admitted.payload ?? (await this.#store.get(attachment.id))?.data;
    return data ? this.#handOver(attachment, data, target) : { ok: false, id: attachment.id, message: GONE };
  }

  /** Every image leaves here: its window's title and app as `target` may read them (the label names them). */
  async #handOver(info: AttachmentInfo, data: Uint8Array, target: TextTarget): Promise<SentImage> {
    const window = info.window ? (await this.windowFacts([info.window], target)).windows[0] : undefined;
    return { ok: true, info: { ...info, ...(window ? { window } : {}) }, data };
  }

  /**
   * An image's whole original as `target` may get it (mcp serve's capture resources): its upright
   * pixels with what it hides for that target filled — or, only when the person asked for it
   * (`glance mcp serve --serve-originals`), the bytes as kept.
   */
  async original(id: string, target: TextTarget, options: { clear?: boolean; signal?: AbortSignal } = {}): Promise<{ ok: true; data: Uint8Array; mime: string } | NotSent> {
    const info = await this.#store.info(id);
    if (!info) return { ok: false, id, message: GONE };
    if (options.clear) {
      const kept = await this.#store.source(info);
      return kept ? { ok: true, data: kept.data, mime: kept.mime } : { ok: false, id, message: GONE };
    }
    const read = await this.#intake.admit({ attachmentId: id }, target, 'read', options.signal ? { signal: options.signal } : {});
    if (!read.ok) return { ok: false, id, message: read.message };
    return { ok: true, data: read.pixels.data, mime: read.pixels.mime };
  }

  /** Text made from an image, as `target` may get it: secrets replaced by `[hidden: kind]` when its images would be redacted. */
  text(text: string, target: TextTarget | undefined): Promise<{ text: string; hidden: number }> {
    return this.#intake.redactText(text, target);
  }

  /**
   * Window titles and app names as `target` may get them: a title is the window's own text (a
   * terminal shows its command line, a browser the page's title) and may hold a token.
   */
  async windowFacts<W extends { app: string; title: string }>(windows: readonly W[], target: TextTarget | undefined): Promise<{ windows: W[]; hidden: number }> {
    let hidden = 0;
    const out: W[] = [];
    for (const w of windows) {
      const title = await this.text(w.title, target);
      const app = await this.text(w.app, target);
      hidden += title.hidden + app.hidden;
      out.push({ ...w, title: title.text, app: app.text });
    }
    return { windows: out, hidden };
  }
}
