import { useEffect } from "react";
import { quoteMarkdown } from "~/lib/quotes";

/**
 * Quoting selected words (issue 32): a post's Quote link, clicked while some of that post's text is
 * selected, puts just the selection in the form's box as a quote; without a selection (or without
 * JavaScript) the link itself opens the form with the whole post quoted by the server. The link
 * carries the post's id, who wrote it and where it is (`data-quote`, `data-quote-name`,
 * `data-quote-url`); the post's element is `#<card>-<id>`.
 */
export function useSelectionQuotes({ card, box, onQuote }: { card: string; box: string; onQuote?: (quoted: { id: number; name: string }) => void }) {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest<HTMLAnchorElement>("a[data-quote]");
      const selection = window.getSelection();
      const words = selection?.toString().trim() ?? "";
      const post = link && document.getElementById(`${card}-${link.dataset.quote}`);
      if (!link || !post || words === "" || !selection?.anchorNode || !post.contains(selection.anchorNode)) return;
      const area = document.getElementById(box) as HTMLTextAreaElement | null;
      if (!area) return;
      event.preventDefault();
      const gap = area.value === "" || area.value.endsWith("\n\n") ? "" : "\n\n";
      area.value = `${area.value}${gap}${quoteMarkdown(words, link.dataset.quoteName ?? "", link.dataset.quoteUrl ?? "")}`;
      onQuote?.({ id: Number(link.dataset.quote), name: link.dataset.quoteName ?? "" });
      // What the form's checks see as typed.
      area.dispatchEvent(new Event("input", { bubbles: true }));
      area.focus();
      area.setSelectionRange(area.value.length, area.value.length);
    };
    document.addEventListener("click", onClick, true);
    return () => document.removeEventListener("click", onClick, true);
  }, [card, box, onQuote]);
}
