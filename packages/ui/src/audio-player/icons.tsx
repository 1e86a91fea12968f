/** A 24×24 icon of one path, drawn in the text colour and hidden from assistive technology. */
function Icon({ d, size = 18 }: { d: string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d={d} />
    </svg>
  );
}

/** The Play button's triangle (18 px; SPEC §2.11 play/pause). */
export function PlayIcon() {
  return <Icon d="M8 5v14l11-7z" />;
}

/** The Pause button's two bars (18 px; SPEC §2.11 play/pause). */
export function PauseIcon() {
  return <Icon d="M6 5h4v14H6zM14 5h4v14h-4z" />;
}

/** The 'Loop' button's two arrows (16 px; SPEC §2.11, docs/features.md 'A player made for transcribing'). */
export function LoopIcon() {
  return <Icon d="M7 7h10v3l4-4-4-4v3H5v6h2V7zm10 10H7v-3l-4 4 4 4v-3h12v-6h-2v4z" size={16} />;
}

/** The magnifier beside the 'Zoom' slider (16 px; SPEC §2.11, docs/features.md 'A player made for transcribing'). */
export function ZoomIcon() {
  return (
    <Icon
      d="M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14zm.5-7H9v2H7v1h2v2h1v-2h2V9h-2z"
      size={16}
    />
  );
}

/** The loudspeaker beside the volume slider (18 px; SPEC §2.11 volume). */
export function VolumeIcon() {
  return <Icon d="M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4z" />;
}
