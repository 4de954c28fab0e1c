import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's plus icon (ISC licence).
export function Plus(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 12h14" />
      <path d="M12 5v14" />
    </Icon>
  );
}
