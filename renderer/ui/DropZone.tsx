import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useApp } from '../state/store.ts';

function hasFiles(e: DragEvent): boolean {
  return [...(e.dataTransfer?.types ?? [])].includes('Files');
}

/** What the overlay promises: main's verdict on how this chat's images go (models:route), in words. */
function useDropMessage(): { title: string; detail: string; refused: boolean } {
  const route = useApp((s) => s.imageRoute);
  if (!route) return { title: 'Drop images to attach', detail: 'Each is checked and resized before anything is sent.', refused: false };
  const hidden = route.hides ? ' Secrets found on this device are hidden first.' : '';
  if (route.way === 'pixels') {
    return { title: 'Drop images to attach', detail: `Each is checked, stripped of metadata and resized for ${route.chat}.${hidden}`, refused: false };
  }
  if (route.way === 'described') {
    return { title: 'Drop images to attach', detail: `${route.chat} can't see: ${route.seer ?? 'the vision helper'} will describe them to it.${hidden}`, refused: false };
  }
  return {
    title: `${route.chat} can't see images`,
    detail:
      route.way === 'text'
        ? 'Dropped images will be refused, unless they hold text: local OCR reads it for the model. Pick a model with the “vision” badge, or set a vision helper in Settings.'
        : 'Glance does not know whether it can see: declare it in Settings, or pick a model with the “vision” badge.',
    refused: true,
  };
}

/** Images dropped anywhere on the window are attached; an overlay says what will happen first. */
export function DropZone({ children }: { children: ReactNode }) {
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const addFiles = useApp((s) => s.addFiles);
  const message = useDropMessage();

  useEffect(() => {
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current++;
      setOver(true);
    };
    const overHandler = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      // Without this the browser opens the file instead of dropping it here.
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setOver(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth.current = 0;
      setOver(false);
      const files = [...(e.dataTransfer?.files ?? [])];
      if (files.length) void addFiles(files);
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', overHandler);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', overHandler);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
    };
  }, [addFiles]);

  return (
    <div className="drop-zone">
      {children}
      {over && (
        <div className={`drop-overlay ${message.refused ? 'refused' : ''}`} aria-hidden="true">
          <div className="drop-card">
            <strong>{message.title}</strong>
            <span>{message.detail}</span>
          </div>
        </div>
      )}
    </div>
  );
}
