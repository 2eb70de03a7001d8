// Settings, one file per section (each with its own draft, save and feedback).
import { useEffect } from 'react';
import { SETTINGS_PAGES } from '../../route.ts';
import { useApp } from '../../state/store.ts';
import { HotkeySection } from './HotkeySection.tsx';
import { ImageSizesSection } from './ImageSizesSection.tsx';
import { LimitsSection } from './LimitsSection.tsx';
import { McpSection } from './McpSection.tsx';
import { PrivacySection } from './PrivacySection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import { ToolApprovalSection } from './ToolApprovalSection.tsx';
import { VisionSection } from './VisionSection.tsx';

/** The whole section box in view, its heading focused (so keyboard and screen reader users land there too). */
function showSection(id: string) {
  const heading = document.getElementById(`settings-${id}-title`);
  document.getElementById(`settings-${id}`)?.scrollIntoView({ block: 'start' });
  heading?.setAttribute('tabindex', '-1');
  heading?.focus({ preventScroll: true });
}

/** `section`: from the address (#/settings/vision), so a link in the chat lands on the right place. */
export function SettingsView({ section }: { section?: string }) {
  const settings = useApp((s) => s.settings);
  const error = useApp((s) => s.settingsError);
  const ready = settings !== null;
  useEffect(() => {
    if (ready && section) showSection(section);
  }, [ready, section]);
  if (!settings) {
    return <div className="settings">{error ? <p role="alert">Settings could not be read: {error}</p> : <p className="muted">Loading settings…</p>}</div>;
  }
  return (
    <div className="settings">
      <h1>Settings</h1>
      <nav className="settings-nav" aria-label="Settings sections">
        {SETTINGS_PAGES.map(([id, label]) => (
          <a key={id} href={`#/settings/${id}`} onClick={(e) => (e.preventDefault(), showSection(id))}>
            {label}
          </a>
        ))}
      </nav>
      <ProvidersSection settings={settings} />
      <VisionSection settings={settings} />
      <ImageSizesSection settings={settings} />
      <PrivacySection settings={settings} />
      <LimitsSection settings={settings} />
      <HotkeySection settings={settings} />
      <McpSection settings={settings} />
      <ToolApprovalSection settings={settings} />
    </div>
  );
}
