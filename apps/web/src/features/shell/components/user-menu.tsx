import { DropdownMenu } from "radix-ui";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { paths } from "#web/config/paths";
import { initials } from "#web/lib/initials";
import { signOut } from "#web/lib/session";
import { useSession } from "#web/hooks/use-session";
import { SignOutIcon } from "./icons";

/**
 * The header's user menu (SPEC §2.3): shows username and role; 'Profile' opens the person's own
 * account and two-factor authentication (decision 038); 'API tokens' opens the person's tokens
 * (decision 036); 'Sign Out' clears the session and the query cache and goes to /, whose
 * route guard sends the user on to /signin.
 */
export function UserMenu() {
  const session = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  if (!session) return null;

  const onSignOut = () => {
    queryClient.clear();
    signOut();
    void navigate(paths.home, { replace: true });
  };

  // Not modal: a modal menu hides the page from screen readers while its controls stay focusable
  // (axe aria-hidden-focus). Focus still moves into the menu; Escape or a click outside closes it
  // and returns focus to the trigger.
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button type="button" className="shell-user-trigger">
          <span className="shell-avatar" aria-hidden="true">
            {initials(session.username)}
          </span>
          <span className="shell-user-text">
            <span className="shell-user-name">{session.username}</span>
            <span className="shell-user-role">{session.role}</span>
          </span>
          <span className="shell-user-caret" aria-hidden="true">
            ▾
          </span>
          {/* Named by what it shows (WCAG 2.5.3), then what it is. */}
          <span className="sr-only">, User menu</span>
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="shell-menu" align="end" sideOffset={8}>
          <DropdownMenu.Label className="shell-menu-label">
            <span className="shell-menu-name">{session.username}</span>
            <span className="shell-menu-role">{session.role}</span>
            <span className="shell-menu-email">{session.email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="shell-menu-separator" />
          <DropdownMenu.Item className="shell-menu-item" onSelect={() => void navigate(paths.apiTokens)}>
            API tokens
          </DropdownMenu.Item>
          <DropdownMenu.Item className="shell-menu-item" onSelect={() => void navigate(paths.profile)}>
            Profile
          </DropdownMenu.Item>
          <DropdownMenu.Item className="shell-menu-item" onSelect={onSignOut}>
            <SignOutIcon />
            Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
