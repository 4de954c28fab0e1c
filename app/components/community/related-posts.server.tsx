import { renderToStaticMarkup } from "react-dom/server";
import { RelatedPostsMarkup } from "./related-posts";

/** The related posts as HTML for the page's markup alone ("" when there are none); no code in the browser. */
export function relatedPostsHtml(heading: string, posts: ReadonlyArray<{ title: string; url: string }>): string {
  return posts.length === 0 ? "" : renderToStaticMarkup(<RelatedPostsMarkup heading={heading} posts={posts} />);
}
