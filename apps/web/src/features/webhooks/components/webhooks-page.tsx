import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { WEBHOOK_DESCRIPTION_MAX_LENGTH, WEBHOOK_EVENT_TYPES } from "@tafsiri/domain";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { Field } from "#web/components/field";
import { ShownOnce } from "#web/components/shown-once";
import { displayTime, shortTime } from "#web/lib/dates";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { WebhookEndpoint } from "#web/lib/api-types";
import "./webhooks.css";

/** How often an open delivery log is read again while it has deliveries waiting, ms. */
const LOG_REFRESH_MS = 2_000;

/** A time in the tables, or '—'. */
function when(iso: string | null) {
  if (!iso) return "—";
  return (
    <time dateTime={iso} title={displayTime(iso).full}>
      {shortTime(iso)}
    </time>
  );
}

/** 'Add an endpoint': its URL, a description and the events it wants (all ticked by default). */
function AddEndpointForm({ onCreated }: { onCreated(secret: string): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const [error, setError] = useState<string | null>(null);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        onCreated(out.secret);
        setUrl("");
        setDescription("");
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
      },
      onError: (e) => setError(errorMessage(e)),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!/^https?:\/\//i.test(url.trim())) return setError("Enter the receiver's http or https URL.");
    if (events.length === 0) return setError("Choose at least one event.");
    create.mutate({
      url: url.trim(),
      description: description.trim(),
      eventTypes: events as (typeof WEBHOOK_EVENT_TYPES)[number][],
    });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="add-webhook-title" noValidate>
      <h2 id="add-webhook-title" className="panel-title">
        Add an endpoint
      </h2>
      <Field label="URL" error={error}>
        {(props) => (
          <input
            {...props}
            className="input"
            type="url"
            value={url}
            placeholder="https://lab.example.org/tafsiri-webhooks"
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field label="Description (optional)">
        {(props) => (
          <input
            {...props}
            className="input"
            value={description}
            maxLength={WEBHOOK_DESCRIPTION_MAX_LENGTH}
            onChange={(e) => setDescription(e.target.value)}
          />
        )}
      </Field>
      <fieldset className="webhook-events">
        <legend className="label">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="webhook-event">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
            />
            <code>{type}</code>
          </label>
        ))}
      </fieldset>
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending && <span className="spinner" aria-hidden="true" />}
          Add endpoint
        </button>
      </div>
    </form>
  );
}

/** An endpoint's delivery log (event, attempts, last answer, next retry), Redeliver on each line. */
function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const log = useQuery(
    trpc.webhooks.deliveries.queryOptions(
      { endpointId: endpoint.id, page: 1, limit: 20 },
      {
        // Live while deliveries wait: read again every few seconds until none is pending.
        refetchInterval: (query) =>
          query.state.data?.deliveries.some((d) => d.status === "pending") ? LOG_REFRESH_MS : false,
      },
    ),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: (out) => toast.success(out.message),
      onError: (e) => toast.error(errorMessage(e)),
      onSettled: refresh,
    }),
  );
  if (log.isPending)
    return (
      <p className="muted" role="status">
        <span className="spinner" aria-hidden="true" /> Loading the deliveries…
      </p>
    );
  if (log.isError) return <p role="alert">The deliveries could not be loaded.</p>;
  if (log.data.deliveries.length === 0) return <p className="muted">No deliveries yet.</p>;
  return (
    <div className="table-wrap" role="region" aria-label={`Deliveries to ${endpoint.url}`} tabIndex={0}>
      <table className="table">
        <caption className="sr-only">Deliveries to {endpoint.url}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Next retry</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {log.data.deliveries.map((d) => (
            <tr key={d.id}>
              <td>
                <code>{d.eventType}</code> {when(d.createdAt)}
              </td>
              <td>{d.status === "delivered" ? "Delivered" : d.status === "failed" ? "Failed" : "Waiting"}</td>
              <td>{d.attempts}</td>
              <td>
                {d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : (d.lastError ?? "—")}
                {d.lastDurationMs !== null ? ` in ${d.lastDurationMs} ms` : ""}
              </td>
              <td>{when(d.nextAttemptAt)}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-sm"
                  disabled={redeliver.isPending}
                  onClick={() => redeliver.mutate({ endpointId: endpoint.id, deliveryId: d.id })}
                >
                  Redeliver<span className="sr-only"> {d.eventType}</span>
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One endpoint: its URL, events and state; Send test event, Enable/Disable, Remove (confirmed), its log. */
function EndpointCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() });
  const sendTest = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: (out) => toast.success(out.message),
      onError: (e) => toast.error(errorMessage(e)),
      onSettled: refresh,
    }),
  );
  const update = useMutation(
    trpc.webhooks.update.mutationOptions({
      onSuccess: (out) => toast.success(out.message),
      onError: (e) => toast.error(errorMessage(e)),
      onSettled: refresh,
    }),
  );
  const remove = useMutation(
    trpc.webhooks.remove.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        setRemoving(false);
      },
      onError: (e) => toast.error(errorMessage(e)),
      onSettled: refresh,
    }),
  );
  return (
    <section className="card stack" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="row webhook-head">
        <h3 className="panel-subtitle webhook-url">{endpoint.url}</h3>
        <span className="webhook-state">
          {endpoint.enabled ? "Enabled" : `Disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`}
        </span>
      </div>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p className="muted">
        Events: {endpoint.eventTypes.join(", ")}
        {endpoint.failingSince ? <> · failing since {when(endpoint.failingSince)}</> : null}
      </p>
      <div className="row">
        <button
          type="button"
          className="btn"
          disabled={sendTest.isPending}
          onClick={() => sendTest.mutate({ endpointId: endpoint.id })}
        >
          {sendTest.isPending && <span className="spinner" aria-hidden="true" />}
          Send test event
        </button>
        <button
          type="button"
          className="btn"
          disabled={update.isPending}
          onClick={() => update.mutate({ endpointId: endpoint.id, enabled: !endpoint.enabled })}
        >
          {endpoint.enabled ? "Disable" : "Enable"}
        </button>
        <ConfirmDialog
          open={removing}
          onOpenChange={setRemoving}
          trigger={
            <button type="button" className="btn btn-danger-outline">
              Remove<span className="sr-only"> {endpoint.url}</span>
            </button>
          }
          title="Remove this endpoint?"
          description={`No more events go to ${endpoint.url}, and its delivery log is deleted.`}
          confirmLabel="Remove"
          pending={remove.isPending}
          onConfirm={() => remove.mutate({ endpointId: endpoint.id })}
        />
      </div>
      <h4 className="label">Deliveries</h4>
      <DeliveryLog endpoint={endpoint} />
    </section>
  );
}

/**
 * Decision 037, Management → Webhooks (admins): 'Add an endpoint' (URL, description, events; the
 * signing secret shown once), and each endpoint with its state, 'Send test event', Enable/Disable,
 * Remove (confirmed) and its delivery log (read again every 2 s while a delivery waits), each
 * delivery with Redeliver. Loading, empty and error states. See docs/webhooks.md.
 */
export function WebhooksPage() {
  const trpc = useTRPC();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <div className="stack webhooks-page">
      <p className="muted">
        Each event of the workflow is sent as a signed POST (the Standard Webhooks headers) to every endpoint that wants
        it, retried for a day when the receiver is down. docs/webhooks.md shows a receiver that verifies them.
      </p>
      {secret && (
        <ShownOnce
          region="The new endpoint's secret"
          what="Signing secret"
          value={secret}
          onDone={() => setSecret(null)}
        >
          <strong>Copy the signing secret now.</strong> It is not shown again; your receiver verifies each delivery with
          it (Standard Webhooks).
        </ShownOnce>
      )}
      <AddEndpointForm onCreated={setSecret} />
      <h2 className="panel-title">Endpoints</h2>
      {list.isPending ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the endpoints…
        </p>
      ) : list.isError ? (
        <p role="alert">The endpoints could not be loaded.</p>
      ) : list.data.endpoints.length === 0 ? (
        <p className="muted">No endpoint yet.</p>
      ) : (
        list.data.endpoints.map((endpoint) => <EndpointCard key={endpoint.id} endpoint={endpoint} />)
      )}
    </div>
  );
}
