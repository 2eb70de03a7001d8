// Settings, one file per section (each with its own draft, save and feedback).
import { useEffect } from 'react';
import { SETTINGS_PAGES } from '../../route.ts';
import { useApp } from '../../state/store.ts';
import { HotkeySection } from './HotkeySection.tsx';
import { ImageSizesSection } from './ImageSizesSection.tsx';
import { LimitsSection } from './LimitsSection.tsx';
import { McpSection } from './McpSection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import { ToolApprovalSection } from './ToolApprovalSection.tsx';
import { VisionSection } from './VisionSection.tsx';

/** `section`: from the address (#/settings/vision), so a link in the chat lands on the right place. */
export function SettingsView({ section }: { section?: string }) {
  const settings = useApp((s) => s.settings);
  const error = useApp((s) => s.settingsError);
  const ready = settings !== null;
  useEffect(() => {
    if (!ready || !section) return;
    const heading = document.getElementById(`settings-${section}-title`);
    // The whole section box in view, its heading focused.
    document.getElementById(`settings-${section}`)?.scrollIntoView({ block: 'start' });
    // The heading takes the focus so keyboard and screen reader users land there too.
    heading?.setAttribute('tabindex', '-1');
    heading?.focus({ preventScroll: true });
  }, [ready, section]);
  if (!settings) {
    return <div className="settings">{error ? <p role="alert">Settings could not be read: {error}</p> : <p className="muted">Loading settings…</p>}</div>;
  }
  return (
    <div className="settings">
      <h1>Settings</h1>
      <nav className="settings-nav" aria-label="Settings sections">
        {SETTINGS_PAGES.map(([id, label]) => (
          <a key={id} href={`#/settings/${id}`} onClick={(e) => (e.preventDefault(), document.getElementById(`settings-${id}`)?.scrollIntoView({ behavior: 'smooth' }))}>
            {label}
          </a>
        ))}
      </nav>
      <ProvidersSection settings={settings} />
      <VisionSection settings={settings} />
      <ImageSizesSection settings={settings} />
      <LimitsSection settings={settings} />
      <HotkeySection settings={settings} />
      <McpSection settings={settings} />
      <ToolApprovalSection settings={settings} />
    </div>
  );
}
