import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's check-circle-2 icon (ISC licence).
export function CheckCircle2(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="10" />
      <path d="m16 9-5.5 5.5L8 12" />
    </Icon>
  );
}
