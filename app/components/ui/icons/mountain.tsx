import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's mountain icon (ISC licence).
export function Mountain(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="m8 3 4 8 5-5 5 15H2L8 3z" />
    </Icon>
  );
}
