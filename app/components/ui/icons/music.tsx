import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's music icon (ISC licence).
export function Music(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M21 16V3a1 1 0 0 0-1.28-.96l-10 2.917a1 1 0 0 0-.72.96V19" />
      <circle cx="18" cy="16" r="3" />
      <circle cx="6" cy="19" r="3" />
    </Icon>
  );
}
