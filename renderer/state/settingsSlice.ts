import type { IpcValue, Notice, SecretBackendInfo, SecretStatus } from '../../common/ipc.ts';
import type { Settings, SettingsPatch } from '../../common/settings.ts';
import type { SliceCreator } from './store.ts';

type AppInfo = IpcValue<'app:info'>;

export type SettingsSlice = {
  settings: Settings | null;
  settingsError: string | null;
  secrets: { backend: SecretBackendInfo; secrets: SecretStatus[] } | null;
  appInfo: AppInfo | null;
  notices: Notice[];
  /** Settings sections (their ids, page order) holding edits not saved yet: leaving Settings asks first. */
  unsavedSettings: readonly string[];
  /** A section says whether it holds unsaved edits (and `false` as it goes away). */
  markUnsaved(section: string, unsaved: boolean): void;
  /**
   * "This model can see", from a refusal: the model's Vision setting declared yes (as Settings →
   * Vision does), the model list asked again. Answers null when saved, else the reason.
   */
  declareSees(model: { endpoint: string; name: string }): Promise<string | null>;
  loadSettings(): Promise<void>;
  /** Answers null when saved, else the reason in plain words. */
  saveSettings(patch: SettingsPatch): Promise<string | null>;
  loadSecrets(): Promise<void>;
  /** `value: null` deletes the key. Answers null when done, else the reason. */
  setSecret(name: string, value: string | null): Promise<string | null>;
  loadAppInfo(): Promise<void>;
  receiveSettings(settings: Settings): void;
  receiveNotice(notice: Notice): void;
  dismissNotice(id: string): void;
};

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get, api) => ({
  settings: null,
  settingsError: null,
  secrets: null,
  appInfo: null,
  notices: [],
  unsavedSettings: [],

  markUnsaved(section, unsaved) {
    set((s) => {
      if (s.unsavedSettings.includes(section) === unsaved) return s;
      return { unsavedSettings: unsaved ? [...s.unsavedSettings, section] : s.unsavedSettings.filter((x) => x !== section) };
    });
  },

  async declareSees(model) {
    const settings = get().settings;
    if (!settings) return 'Settings are not loaded yet.';
    const vision = { ...settings.vision, [model.endpoint]: { ...(settings.vision[model.endpoint] ?? {}), [model.name]: 'yes' as const } };
    const problem = await get().saveSettings({ vision });
    // What is retried next is checked against the model as now declared.
    if (!problem) await get().loadModels(true);
    return problem;
  },

  async loadSettings() {
    const result = await api.settingsGet();
    if (result.ok) set({ settings: result.value, settingsError: null });
    else set({ settingsError: result.message });
  },

  async saveSettings(patch) {
    const result = await api.settingsSet({ patch });
    if (!result.ok) return result.message;
    set({ settings: result.value });
    // Endpoints, declared vision and the hotkey change what the model list and app info say.
    if (patch.providers || patch.vision) void get().loadModels(true);
    if (patch.hotkey !== undefined) void get().loadAppInfo();
    if (patch.providers) void get().loadSecrets();
    if (patch.mcpServers) void get().loadMcp();
    return null;
  },

  async loadSecrets() {
    const result = await api.secretsStatus();
    if (result.ok) set({ secrets: result.value });
  },

  async setSecret(name, value) {
    const result = await api.secretsSet({ name, value });
    if (!result.ok) return result.message;
    await get().loadSecrets();
    return null;
  },

  async loadAppInfo() {
    const result = await api.appInfo();
    if (!result.ok) return;
    set((s) => {
      const known = new Set(s.notices.map((n) => n.id));
      return { appInfo: result.value, notices: [...s.notices, ...result.value.notices.filter((n) => !known.has(n.id))] };
    });
  },

  receiveSettings(settings) {
    set({ settings });
  },

  receiveNotice(notice) {
    set((s) => (s.notices.some((n) => n.id === notice.id) ? s : { notices: [...s.notices, notice] }));
    if (notice.code.startsWith('hotkey')) void get().loadAppInfo();
  },

  dismissNotice(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
});
