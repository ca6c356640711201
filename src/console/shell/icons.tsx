/**
 * Small line icons drawn as inline SVG (no icon font: Debian's fonts have no emoji, so ✎ and 🗑 characters
 * showed as empty boxes). Decorative: the button that holds one gives the accessible name.
 */
const lineIcon = (d: string) =>
  function LineIcon({ size = 16 }: { size?: number }) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d={d} />
      </svg>
    );
  };

/** A waste bin (delete, remove). */
export const DeleteIcon = lineIcon('M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3');
/** A pencil (edit). */
export const EditIcon = lineIcon('M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4');
