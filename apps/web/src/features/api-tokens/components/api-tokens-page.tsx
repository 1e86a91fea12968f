import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_NAME_MAX_LENGTH,
  API_TOKEN_NAME_REQUIRED,
  API_TOKEN_SCOPES,
  apiTokenExpiryProblem,
  type ApiTokenScope,
} from "@tafsiri/domain";
import { ConfirmDialog } from "#web/components/confirm-dialog";
import { Field } from "#web/components/field";
import { ShownOnce } from "#web/components/shown-once";
import { useSession } from "#web/hooks/use-session";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import type { ApiTokenView } from "#web/lib/api-types";
import "./api-tokens.css";

type TokenView = ApiTokenView;

const DAY_MS = 86_400_000;
const STATE_WORDS: Record<TokenView["state"], string> = { active: "Active", expired: "Expired", revoked: "Revoked" };
const SCOPE_WORDS: Record<ApiTokenScope, string> = { read: "Read only", write: "Read and write" };

/** A time as the tables show it ('2026-12-07 14:05'), or '—'. */
function when(iso: string | null): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/**
 * Decision 036: the form that creates a token: a name, a scope (read only, or read and write) and an
 * expiry (30, 90 or 365 days, a date, or for admins never, with a warning). The rules are the
 * server's (apiTokenExpiryProblem), checked here first.
 */
function CreateTokenForm({ isAdmin, onCreated }: { isAdmin: boolean; onCreated(token: string): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<ApiTokenScope>("read");
  const [expiry, setExpiry] = useState<string>("30");
  const [date, setDate] = useState("");
  const [errors, setErrors] = useState<{ name?: string; expiry?: string }>({});
  const create = useMutation(
    trpc.apiTokens.create.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        onCreated(out.token);
        setName("");
        void queryClient.invalidateQueries({ queryKey: trpc.apiTokens.pathKey() });
      },
      onError: (error) => toast.error(errorMessage(error)),
    }),
  );

  const expiresAt = (): Date | null => {
    if (expiry === "never") return null;
    if (expiry === "date") return date ? new Date(`${date}T23:59:59`) : new Date(Number.NaN);
    return new Date(Date.now() + Number(expiry) * DAY_MS);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = expiresAt();
    const next: typeof errors = {};
    if (name.trim() === "") next.name = API_TOKEN_NAME_REQUIRED;
    if (at !== null && Number.isNaN(at.getTime())) next.expiry = "Choose the day the token expires.";
    else {
      const problem = apiTokenExpiryProblem(at, isAdmin, new Date());
      if (problem) next.expiry = problem;
    }
    setErrors(next);
    if (next.name || next.expiry) return;
    create.mutate({ name: name.trim(), scope, expiresAt: at === null ? null : at.toISOString() });
  };

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby="create-token-title" noValidate>
      <h2 id="create-token-title" className="panel-title">
        Create a token
      </h2>
      <Field label="Name" hint="What the token is for, e.g. 'lab pipeline'." error={errors.name}>
        {(props) => (
          <input
            {...props}
            className="input"
            value={name}
            maxLength={API_TOKEN_NAME_MAX_LENGTH}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <fieldset className="token-scope">
        <legend className="label">Scope</legend>
        {API_TOKEN_SCOPES.map((value) => (
          <label key={value} className="token-option">
            <input
              type="radio"
              name="token-scope"
              value={value}
              checked={scope === value}
              onChange={() => setScope(value)}
            />
            {SCOPE_WORDS[value]}
          </label>
        ))}
        <p className="field-hint">The token acts as you: never more than your own role allows.</p>
      </fieldset>
      <Field label="Expires" error={errors.expiry}>
        {(props) => (
          <select {...props} className="input" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
            {API_TOKEN_EXPIRY_DAYS.map((days) => (
              <option key={days} value={String(days)}>
                In {days} days
              </option>
            ))}
            <option value="date">On a date…</option>
            {isAdmin && <option value="never">Never</option>}
          </select>
        )}
      </Field>
      {expiry === "date" && (
        <Field label="Expiry date">
          {(props) => (
            <input
              {...props}
              type="date"
              className="input"
              value={date}
              onChange={(event) => setDate(event.target.value)}
            />
          )}
        </Field>
      )}
      {expiry === "never" && (
        <p className="token-warning" role="note">
          <span aria-hidden="true">⚠ </span>
          <strong>Warning:</strong> a token that never expires works until someone revokes it. Prefer an expiry.
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending && <span className="spinner" aria-hidden="true" />}
          Create token
        </button>
      </div>
    </form>
  );
}

/** One token's Revoke button, behind a confirmation. */
function RevokeButton({ token }: { token: TokenView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const revoke = useMutation(
    trpc.apiTokens.revoke.mutationOptions({
      onSuccess: (out) => {
        toast.success(out.message);
        setOpen(false);
        void queryClient.invalidateQueries({ queryKey: trpc.apiTokens.pathKey() });
      },
      onError: (error) => toast.error(errorMessage(error)),
    }),
  );
  if (token.state !== "active") return null;
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <button type="button" className="btn btn-sm btn-danger-outline">
          Revoke<span className="sr-only"> {token.name}</span>
        </button>
      }
      title={`Revoke '${token.name}'?`}
      description="Scripts using it are refused at once, and its live connections close. This cannot be undone."
      confirmLabel="Revoke"
      pending={revoke.isPending}
      onConfirm={() => revoke.mutate({ tokenId: token.id })}
    />
  );
}

/** A table of tokens, with their owner when `withOwner`. */
function TokenTable({ caption, tokens, withOwner }: { caption: string; tokens: TokenView[]; withOwner: boolean }) {
  return (
    <div className="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table className="table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {withOwner && <th scope="col">Owner</th>}
            <th scope="col">Token</th>
            <th scope="col">Scope</th>
            <th scope="col">Created</th>
            <th scope="col">Expires</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => (
            <tr key={token.id}>
              <td>{token.name}</td>
              {withOwner && <td>{token.owner.username}</td>}
              <td>
                <code>{token.hint}</code>
              </td>
              <td>{SCOPE_WORDS[token.scope]}</td>
              <td>{when(token.createdAt)}</td>
              <td>{token.expiresAt ? when(token.expiresAt) : "Never"}</td>
              <td>
                {when(token.lastUsedAt)}
                {token.lastUsedIp ? ` from ${token.lastUsedIp}` : ""}
              </td>
              <td>{STATE_WORDS[token.state]}</td>
              <td>
                <RevokeButton token={token} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Admins: every person's tokens, 20 a page. */
function EveryToken() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const all = useQuery(trpc.apiTokens.all.queryOptions({ page, limit: 20 }));
  const pages = Math.max(1, Math.ceil((all.data?.total ?? 0) / 20));
  return (
    <section className="card stack" aria-labelledby="every-token-title">
      <h2 id="every-token-title" className="panel-title">
        Every token
      </h2>
      {all.isPending ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the tokens…
        </p>
      ) : all.isError ? (
        <p role="alert">The tokens could not be loaded.</p>
      ) : all.data.tokens.length === 0 ? (
        <p className="muted">Nobody has created a token yet.</p>
      ) : (
        <>
          <TokenTable caption="Every person's API tokens" tokens={all.data.tokens} withOwner />
          <div className="row">
            <button type="button" className="btn" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button type="button" className="btn" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </div>
        </>
      )}
    </section>
  );
}

/**
 * Decision 036, API tokens (/settings/tokens): the signed-in person's tokens (name, first
 * characters, scope, created, expiry, last use, state, Revoke), a form to create one (shown once),
 * and for admins every person's tokens. Loading, empty and error states.
 */
export function ApiTokensPage() {
  const trpc = useTRPC();
  const session = useSession();
  const isAdmin = session?.role === "Admin";
  const mine = useQuery(trpc.apiTokens.mine.queryOptions());
  const [created, setCreated] = useState<string | null>(null);
  return (
    <section className="page stack api-tokens-page" aria-labelledby="api-tokens-title">
      <h1 id="api-tokens-title" className="page-title">
        API tokens
      </h1>
      <p className="muted">
        A token lets a script call the REST paths and procedures as you (<code>Authorization: Bearer tfs_…</code>). See
        the API documentation at <a href="/api/docs">/api/docs</a>.
      </p>
      {created && (
        <ShownOnce region="Your new token" what="New token" value={created} onDone={() => setCreated(null)}>
          <strong>Copy your token now.</strong> It is not shown again; only its first characters are kept.
        </ShownOnce>
      )}
      <CreateTokenForm isAdmin={isAdmin} onCreated={setCreated} />
      <section className="card stack" aria-labelledby="my-tokens-title">
        <h2 id="my-tokens-title" className="panel-title">
          Your tokens
        </h2>
        {mine.isPending ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Loading your tokens…
          </p>
        ) : mine.isError ? (
          <p role="alert">Your tokens could not be loaded.</p>
        ) : mine.data.tokens.length === 0 ? (
          <p className="muted">You have no tokens yet.</p>
        ) : (
          <TokenTable caption="Your API tokens" tokens={mine.data.tokens} withOwner={false} />
        )}
      </section>
      {isAdmin && <EveryToken />}
    </section>
  );
}
