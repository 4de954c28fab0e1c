import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's menu icon (ISC licence).
export function Menu(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 5h16" />
      <path d="M4 12h16" />
      <path d="M4 19h16" />
    </Icon>
  );
}
