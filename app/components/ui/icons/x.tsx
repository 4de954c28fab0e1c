import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's x icon (ISC licence).
export function X(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M18 6 6 18" />
      <path d="m6 6 12 12" />
    </Icon>
  );
}
