import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Avatar } from "~/components/community/avatar";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FieldError, FormAlert, Label } from "~/components/ui/form-controls";
import type { SettingsResult } from "./settings-form";

/**
 * The member's picture (ADR 0072): what shows now (the picture or the initials), an upload that
 * works without JavaScript (a multipart form), and a one-click removal. Both forms post to the
 * settings action, each with its own intent; whichever answered shows its result here. What it
 * did comes rendered by the page (`done`, the settings' `Done`): this form is a chunk of its own
 * (ADR 0031), and the page's other forms share that component in the page's script.
 */
export function AvatarSettingsForm({
  member,
  result,
  done,
}: {
  member: { name: string; handle: string; avatar: string | null };
  result?: SettingsResult;
  done: ReactNode;
}) {
  const navigation = useNavigation();
  const sending = (intent: string) => navigation.state === "submitting" && navigation.formAction?.endsWith(`intent=${intent}`) === true;
  const errors = result?.errors ?? {};
  return (
    <Card>
      <CardHeader>
        <CardTitle id="avatar-settings">Profile picture</CardTitle>
        <CardDescription>Shown beside your name wherever you write. Without one, your initials show.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <FormAlert>{errors.form}</FormAlert>
        {done}
        <div className="flex items-center gap-4">
          <Avatar member={member} size="lg" />
          {member.avatar ? (
            <Form method="post" action="/settings?intent=remove-avatar">
              <Button type="submit" variant="outline" disabled={sending("remove-avatar")}>
                {sending("remove-avatar") ? "Removing..." : "Remove picture"}
              </Button>
            </Form>
          ) : null}
        </div>
        {/* A new picture starts a fresh form: the file just sent is not shown as chosen again. */}
        <Form key={member.avatar ?? "initials"} method="post" action="/settings?intent=avatar" encType="multipart/form-data" className="flex flex-col gap-4">
          {/* The browser's own file control: the Forge's styled one (FileField) rides with the creation
              form, and sharing it cost each Forge form page half a kilobyte before interactive. */}
          <div className="flex flex-col gap-2">
            <Label htmlFor="avatar">Profile picture</Label>
            <input
              id="avatar"
              name="avatar"
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif"
              aria-invalid={errors.avatar ? true : undefined}
              aria-describedby={errors.avatar ? "avatar-error avatar-help" : "avatar-help"}
              className="text-sm file:mr-3 file:rounded-md file:border file:border-line file:bg-white file:px-3 file:py-1.5 file:font-semibold"
            />
            <p id="avatar-help" className="text-sm text-muted">
              PNG, JPEG, WebP or GIF, at most 5 MB. It is cut to a square; nothing but its pixels is kept (no location, no camera details).
            </p>
            <FieldError id="avatar-error">{errors.avatar}</FieldError>
          </div>
          <div>
            <Button type="submit" variant="monk" disabled={sending("avatar")}>
              {sending("avatar") ? "Uploading..." : "Upload picture"}
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}
