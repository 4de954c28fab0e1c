import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's rss icon (ISC licence).
export function Rss(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 11a9 9 0 0 1 9 9" />
      <path d="M4 4a16 16 0 0 1 16 16" />
      <circle cx="5" cy="19" r="1" />
    </Icon>
  );
}
