import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from "~/components/ui/card";
import { Download } from "~/components/ui/icons/download";

/** The settings page's link to the member's data export (/settings/export, ADR 0023). */
export function DataExportCard() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your data</CardTitle>
        <CardDescription>
          Everything you wrote and did here, with your profile, as one JSON file: discussions, replies, questions, answers, creations, comments, likes, votes,
          experience points, topics and newsletter status.
        </CardDescription>
      </CardHeader>
      <CardFooter>
        {/* A file download, not a page: the browser fetches it itself. */}
        <a
          href="/settings/export"
          download
          className="inline-flex h-10 items-center gap-2 rounded-md border border-line px-4 text-sm font-semibold hover:bg-stone-100"
        >
          <Download aria-hidden="true" className="size-4" />
          Download my data
        </a>
      </CardFooter>
    </Card>
  );
}
