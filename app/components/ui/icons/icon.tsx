import type { SVGProps } from "react";

export type IconProps = SVGProps<SVGSVGElement>;

/**
 * The frame of every icon: a 24×24 stroked drawing in the text colour, like Lucide's, whose
 * drawings ours are (ISC licence). Our own components instead of lucide-react save its 1.5 KB gzip
 * icon factory on every page (ADR 0029). Icons are decorative: callers pass aria-hidden.
 */
export function Icon({ children, ...props }: IconProps) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {children}
    </svg>
  );
}

/**
 * An icon drawn by one path: the drawing's lines, circles and boxes as its subpaths (all are stroked
 * alike, so one path draws what several elements did). One line per icon instead of a component's
 * ten, and the same frame for all.
 */
export function drawnIcon(d: string) {
  return function DrawnIcon(props: IconProps) {
    return (
      <Icon {...props}>
        <path d={d} />
      </Icon>
    );
  };
}
