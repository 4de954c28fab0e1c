import { Icon, type IconProps } from "./icon";

// Drawn after Lucide's list-filter icon (ISC licence).
export function ListFilter(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M2 5h20" />
      <path d="M6 12h12" />
      <path d="M9 19h6" />
    </Icon>
  );
}
