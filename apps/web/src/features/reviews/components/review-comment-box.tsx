import type { RefObject } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { COMMENT_MAX_LENGTH } from "@tafsiri/domain";
import { CommentForm } from "#web/components/comment-form";
import { announce } from "#web/lib/announce";
import { useTRPC } from "#web/lib/trpc";
import { keysOf } from "#web/features/reviews/lib/review-shortcuts";
import { UNEXPECTED_ERROR } from "@tafsiri/domain";

/**
 * The item's comment box (comments.add: the assignee is notified, others see it live), the
 * Feedback panel's CommentForm with review mode's texts and key (decision 025): 'Add a comment'
 * with Alt+C, 'Add comment'. A blank comment or a refusal is said under the box; focus goes back to
 * the box after each send, and 'Comment added.' is announced.
 */
export function ReviewCommentBox({
  audioId,
  fieldRef,
}: {
  audioId: string;
  fieldRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const add = useMutation(trpc.comments.add.mutationOptions());

  const send = async (text: string): Promise<boolean | string> => {
    try {
      await add.mutateAsync({ audioId, text });
      announce("Comment added.");
      void queryClient.invalidateQueries({ queryKey: trpc.comments.list.queryKey({ audioId }) });
      return true;
    } catch (error) {
      return error instanceof TRPCClientError && error.data ? error.message : UNEXPECTED_ERROR;
    } finally {
      fieldRef.current?.focus();
    }
  };

  return (
    <CommentForm
      onSend={send}
      sending={add.isPending}
      label={
        <>
          Add a comment <kbd>{keysOf("comment")}</kbd>
        </>
      }
      hint=""
      placeholder=""
      submitLabel="Add comment"
      formLabel=""
      blankMessage="Please write a comment first."
      fieldRef={fieldRef}
      keyShortcuts={keysOf("comment")}
      maxLength={COMMENT_MAX_LENGTH}
    />
  );
}
