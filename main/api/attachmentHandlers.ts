// Images from the UI: added (drop, paste, picker), thumbnailed, cropped, captured. Every one
// goes through the door (ImageIntake.admit) for the model that will look at it (the chat model,
// or its helper); the door also decides when a blind model gets an image's text instead.
import { screenshotName } from '../../common/fileNames.ts';
import { capturedWindowName } from '../../common/images.ts';
import { basename } from 'node:path';
import { visionRefusal } from '../images/imageIntake.ts';
import { cropAttachment } from '../images/cropImage.ts';
import { thumbnail } from '../images/imageOps.ts';
import { originalForViewer } from '../images/originalForViewer.ts';
import type { ApiDeps } from './apiHandlers.ts';
import { fail, ok, providerFailure, type IpcHandlers } from './ipcRouter.ts';
import { doorWindows } from '../capture/screenCapturer.ts';
import type { Admitted, FrameInput, ImageInput } from '../images/types.ts';
import type { ImageRoute } from '../chat/imageRoute.ts';
import { passwordFields, secretFields } from '../accessibility/windowTextForModel.ts';
import type { WindowTextResult } from '../accessibility/windowText.ts';
import type { AttachmentInfo, CapturedWindowName } from '../../common/images.ts';
import type { DisplayInfo } from '../capture/screenCapturer.ts';
import { errorMessage } from '../errors.ts';

type CaptureInput = FrameInput | ImageInput;

type AttachmentHandlers = Pick<IpcHandlers, 'attachments:add' | 'attachments:thumbnail' | 'attachments:original' | 'attachments:crop' | 'attachments:preview' | 'capture:screenshot'>;

/** A capture that could not be checked for secrets is kept this long for "Send anyway", then dropped. */
const HELD_MS = 10 * 60_000;
/** At most this many are held (each is a whole screen's pixels). */
const HELD_MAX = 4;

export function attachmentHandlers(deps: ApiDeps): AttachmentHandlers {
  const { services } = deps;
  const held = new Map<string, { input: CaptureInput; timer: ReturnType<typeof setTimeout> }>();
  const hold = (key: string, input: CaptureInput) => {
    const timer = setTimeout(() => held.delete(key), HELD_MS);
    timer.unref?.();
    held.set(key, { input, timer });
    for (const [oldest, entry] of held) {
      if (held.size <= HELD_MAX) break;
      clearTimeout(entry.timer);
      held.delete(oldest);
    }
  };

  // The window under the pointer at the hotkey, its own words read from accessibility right after the
  // pixels (architecture §7), while the ask window opens: "This window" takes them with its cut.
  const underReads: { captureId: string; read: Promise<WindowTextResult> }[] = [];
  const readUnder = (captureId: string, under: CapturedWindowName & { region: { x: number; y: number; width: number; height: number } }, display: DisplayInfo) => {
    const reader = services.windowText;
    if (!reader) return;
    const s = display.scaleFactor || 1;
    const { region } = under;
    const read = reader
      .read({ title: under.title, x: display.x + region.x / s, y: display.y + region.y / s, width: region.width / s, height: region.height / s, scale: s })
      .catch((error: unknown): WindowTextResult => ({ ok: false, code: 'no-window', message: `The window's text could not be read (${errorMessage(error)}); the model reads the image.`, ms: 0 }));
    underReads.unshift({ captureId, read });
    underReads.length = Math.min(underReads.length, HELD_MAX);
  };
  /** The read of the window under the pointer for the capture `info` is (or is a copy of its original). */
  const underReadFor = async (info: AttachmentInfo) => {
    for (const entry of underReads) {
      if (entry.captureId === info.id) return entry.read;
      const capture = info.original && (await services.attachments.info(entry.captureId));
      if (capture?.original && capture.original.sha256 === info.original?.sha256) return entry.read;
    }
    return undefined;
  };

  /** Where the image goes through the door, as a send routes it (the chat model, or its vision helper; the conversation's own policy). */
  async function gateTarget(model: Parameters<typeof services.models.routeFor>[0], conversationId?: string) {
    return (await services.models.routeFor(model, conversationId)).target;
  }

  /** The door's verdict for the window: the copy made, and whether the model gets its text or a helper's description instead. */
  function asPreview(result: Admitted, route?: ImageRoute) {
    const { transcript } = result;
    return {
      ...result.attachment,
      ...(transcript ? { asText: { chars: transcript.text.length, engine: transcript.engine } } : {}),
      ...(route?.way === 'described' && route.seer ? { describedBy: route.seer.model } : {}),
    };
  }

  return {
    'attachments:add': async ({ source, model, conversationId, sendAnyway }) => {
      let route;
      try {
        route = await services.models.routeFor(model, conversationId);
      } catch (error) {
        return providerFailure(error);
      }
      const { target } = route;
      const input =
        source.kind === 'path'
          ? { source: source.path, name: basename(source.path), origin: 'user', requestedBy: 'user' as const }
          : { source: source.bytes, name: source.name, origin: 'user', requestedBy: 'user' as const };
      // A blind model with no helper takes a text-bearing image as its text (local OCR, at send);
      // one without text is refused now, as before.
      const result = await services.intake.admit(input, sendAnyway ? { ...target, sendAnyway } : target, 'user');
      return result.ok ? ok(asPreview(result, route)) : fail(result.code, result.message);
    },

    'attachments:thumbnail': async ({ id, maxEdge }) => {
      const got = await services.attachments.get(id);
      if (!got) return fail('not-found', `No stored image has the id ${id}.`);
      return ok(await thumbnail(got.data, maxEdge, got.info.source));
    },

    'attachments:original': async ({ id }) => {
      const info = await services.attachments.info(id);
      if (!info) return fail('not-found', `No stored image has the id ${id}.`);
      const view = await originalForViewer(services.attachments, info, services.limits);
      if (!view.ok) return fail(view.code, view.message);
      const { data, ...rest } = view;
      return ok({ ...rest, dataUrl: `data:${view.mime};base64,${Buffer.from(data).toString('base64')}` });
    },

    'attachments:preview': async ({ id, model, conversationId, shown, sendAnyway }) => {
      if (!(await services.attachments.info(id))) return fail('not-found', `No stored image has the id ${id}.`);
      let route;
      try {
        route = await services.models.routeFor(model, conversationId);
      } catch (error) {
        return providerFailure(error);
      }
      // Through the door like the send itself: what this shows is what the model will get.
      const target = { ...route.target, ...(shown.length ? { shown } : {}), ...(sendAnyway ? { sendAnyway } : {}) };
      const result = await services.intake.admit({ attachmentId: id }, target, 'user');
      if (!result.ok) return fail(result.code, result.message);
      return ok(asPreview(result, route));
    },

    'attachments:crop': async ({ id, region, model, window }) => {
      const info = await services.attachments.info(id);
      if (!info) return fail('not-found', `No stored image has the id ${id}.`);
      // Cut from the kept original at native resolution: that is what keeps small text legible.
      const crop = await cropAttachment(services.attachments, info, region, services.limits);
      if (!crop.ok) return fail(crop.code, crop.message);
      let target;
      try {
        target = await gateTarget(model);
      } catch (error) {
        return providerFailure(error);
      }
      // "This window": its own words, read when it was captured; its password fields and the secrets in its words are filled in every copy.
      const own = window ? await underReadFor(info) : undefined;
      const ownRead = own && (await own);
      const size = { width: crop.source.width, height: crop.source.height };
      const fields = ownRead ? [...passwordFields(ownRead, size), ...secretFields(ownRead, size)] : [];
      const windows = [...(crop.windows ?? []), ...fields];
      // A region of a window capture is still that window; "This window" names the window it cuts.
      const named = window ? capturedWindowName(window) : info.window;
      const name = window ? screenshotName(`${named?.app || 'window'}-window`) : info.name.replace(/(\.[a-z0-9]+)?$/i, '-crop.png');
      const result = await services.intake.admit(
        // The capture's windows that fall in the region come along: a password manager's stays filled.
        { source: crop.png, name, origin: info.origin, requestedBy: 'user', ...(named ? { window: named } : {}), ...(windows.length ? { windows } : {}) },
        target,
        'user',
      );
      if (!result.ok) return fail(result.code, result.message);
      const cut = result.attachment;
      // The words go with the cut (and every copy of it): the whole window's, or those of a region of it.
      // What the send will carry is what the shelf holds for this original (the same pixels cut before
      // keep the words read then), so that is what the ask window is told.
      if (ownRead) services.windowTexts.keep(cut, ownRead);
      const kept = services.windowTexts.get(cut) ?? (ownRead ? undefined : services.windowTexts.keepPart(info, cut, crop.source));
      const windowText = kept
        ? { app: kept.app, elements: kept.elements.length, chars: kept.elements.reduce((n, e) => n + e.text.length, 0) }
        : ownRead
          ? { unavailable: `Only the image goes: ${ownRead.ok ? `the window exposes no text over accessibility (${ownRead.app || 'its application'} gives none).` : ownRead.message}` }
          : undefined;
      return ok({ ...cut, ...(windowText ? { windowText } : {}) });
    },

    'capture:screenshot': async ({ display, model, hold: holdAs, sendHeld }) => {
      if (!deps.capturer) return fail('capture-unavailable', 'Screen capture is not available here.');
      let target;
      try {
        target = await gateTarget(model);
      } catch (error) {
        return providerFailure(error);
      }
      // Refuse before capturing when nobody can look at the result (the door's own gate, asked early).
      const refusal = visionRefusal(target);
      if (refusal) return fail(refusal.code, refusal.message);
      if (sendHeld) {
        // "Send anyway": the very pixels that could not be checked, for this image only (recorded on its copy).
        const entry = held.get(sendHeld);
        if (!entry) return fail('not-found', 'That screenshot is no longer kept (a screenshot that could not be checked is kept for 10 minutes). Take a new one.');
        clearTimeout(entry.timer);
        held.delete(sendHeld);
        const result = await services.intake.admit(entry.input, { ...target, sendAnyway: true }, 'user');
        if (!result.ok) return fail(result.code, result.message);
        void result.originalKept?.then((kept) => !kept.ok && services.log(`capture: ${kept.message}`));
        return ok(result.attachment);
      }
      const restore = (await deps.shell.hideForCapture?.()) ?? (() => undefined);
      let shot;
      try {
        // Under the pointer: the window there is found with the same capture, so "This window" cuts it
        // later from these pixels (nothing is captured once a Glance window shows).
        // Raw pixels where the backend has them: the door fits the model's copy from them and
        // encodes the lossless original after, so no PNG is made ahead of the request.
        const which = display === 'under-cursor' || display === 'all' ? display : { display: display.id };
        const options = { windowUnderPointer: display === 'under-cursor' };
        shot = deps.capturer.captureFrame ? await deps.capturer.captureFrame(which, options) : await deps.capturer.capture(which, options);
      } finally {
        restore();
      }
      if (!shot.ok) return fail(shot.code, shot.message);
      const { capture } = shot;
      const name = screenshotName(capture.display.name);
      // The windows on it go too: an excluded app's (a password manager) is filled before OCR.
      const facts = { name, origin: 'screenshot', requestedBy: 'user' as const, pixelRatio: capture.display.scaleFactor, ...doorWindows(capture) };
      const input: CaptureInput = 'frame' in capture ? { ...facts, frame: capture.frame } : { ...facts, source: capture.png };
      const result = await services.intake.admit(input, target, 'user');
      // The intake keeps the native-resolution capture as the original: a crop (the ask window's region) stays sharp.
      if (!result.ok) {
        if (result.code === 'redaction-failed' && holdAs) hold(holdAs, input);
        return fail(result.code, result.message);
      }
      // The original is written while the ask window opens; if the disk refuses it, say so (the bytes stay in memory).
      void result.originalKept?.then((kept) => !kept.ok && services.log(`capture: ${kept.message}`));
      const under = shot.capture.underPointer;
      if (under) readUnder(result.attachment.id, under, capture.display);
      return ok({ ...result.attachment, ...(under ? { underPointer: { ...capturedWindowName(under), region: under.region } } : {}) });
    },
  };
}
