import { Checkbox, FieldError, Label } from "~/components/ui/form-controls";
import { VIRTUES } from "~/lib/virtues";

/** 1 to 3 virtues as checkboxes named "virtues", in a fieldset with its message. */
export function VirtuePicker({ idPrefix, chosen = [], error }: { idPrefix: string; chosen?: string[]; error?: string }) {
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${idPrefix}-virtues-error` : undefined}>
      <legend className="mb-1 text-sm font-medium">Virtues (choose 1 to 3)</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {VIRTUES.map((v) => (
          <div key={v.id} className="flex items-center gap-2">
            <Checkbox id={`${idPrefix}-virtue-${v.id}`} name="virtues" value={v.id} defaultChecked={chosen.includes(v.id)} />
            <Label htmlFor={`${idPrefix}-virtue-${v.id}`} className={v.path === "monk" ? "font-normal text-monk-strong" : "font-normal text-warrior-strong"}>
              {v.label}
            </Label>
          </div>
        ))}
      </div>
      <FieldError id={`${idPrefix}-virtues-error`}>{error}</FieldError>
    </fieldset>
  );
}
