import { MarkdownField } from "~/components/community/markdown-field";
import { Form, useNavigation } from "react-router";
import { useValidatedForm } from "~/components/community/use-validated-form";
import { Button, ButtonLink } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-controls";
import { COMMENT_MAX, MARKDOWN_HELP } from "~/schemas/fields";

/** A creation's comment form, and the form that edits a comment. The page loads it after hydration (ADR 0031). */
export function CommentForm({
  intent,
  commentId,
  body,
  submissionKey,
  errors: serverErrors,
  cancel,
  keep,
}: {
  intent: "comment" | "edit-comment";
  commentId?: number;
  body?: string;
  submissionKey?: string;
  errors?: Record<string, string>;
  cancel?: string;
  /** Where a half-written comment is kept (issue 32). */
  keep?: { place: string; label: string };
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const { errors, onSubmit, onChange } = useValidatedForm(
    () => import("~/schemas/creation-comment").then((m) => (intent === "comment" ? m.commentSchema : m.editCommentSchema)),
    [],
    serverErrors,
  );
  return (
    <Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="flex flex-col gap-3" key={submissionKey ?? commentId}>
      <input type="hidden" name="intent" value={intent} />
      {submissionKey ? <input type="hidden" name="submissionKey" value={submissionKey} /> : null}
      {commentId ? <input type="hidden" name="commentId" value={commentId} /> : null}
      <FormAlert>{errors.form ?? errors.submissionKey}</FormAlert>
      <MarkdownField
        name="body"
        id={intent === "comment" ? "comment-body" : `edit-comment-${commentId}`}
        draft={keep}
        label="Your comment"
        rows={intent === "comment" ? 4 : 5}
        maxLength={COMMENT_MAX}
        defaultValue={body}
        error={errors.body}
        help={intent === "comment" ? `Up to ${COMMENT_MAX.toLocaleString("en-US")} characters. ${MARKDOWN_HELP}` : undefined}
      />
      <div className="flex gap-2">
        <Button type="submit" variant="monk" disabled={busy}>
          {intent === "comment" ? (busy ? "Posting..." : "Post Comment") : "Save Changes"}
        </Button>
        {cancel ? (
          <ButtonLink to={cancel} variant="outline" preventScrollReset>
            Cancel
          </ButtonLink>
        ) : null}
      </div>
    </Form>
  );
}
