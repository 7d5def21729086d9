/**
 * The Sessions view's label of a session (src/inspector/assets/inspector-sessions.js, the page's
 * own module, loaded as the browser does): with an identity provider it names the session's
 * user, the token subject the recorder keeps and /api/sessions answers.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { createSessionRecorder } from "../mcp/serve/session-recorder.js";
import { createInspectorModel } from "./inspector-model.js";
import { startInspectorServer } from "./inspector-server.js";

interface LabelledSession {
  id: string;
  client?: string;
  user?: string;
}
const page = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "assets/inspector-sessions.js",
);
const { sessionLabel } = (await import(pathToFileURL(page).href)) as {
  sessionLabel: (session: LabelledSession) => string;
};

describe("the Sessions view's session label", () => {
  it("names the user when the session has one, and only then", () => {
    const id = "0123456789abcdef";
    expect(sessionLabel({ id, client: "claude 1.2", user: "alice@example.com" })).toBe(
      "01234567 (claude 1.2) by alice@example.com",
    );
    expect(sessionLabel({ id, user: "alice" })).toBe("01234567 by alice");
    expect(sessionLabel({ id, client: "claude 1.2" })).toBe("01234567 (claude 1.2)");
  });

  it("gets the user from /api/sessions, as the recorder keeps it", async () => {
    const recorder = createSessionRecorder();
    recorder.open("session-with-user", { name: "claude", version: "1.2" }, "alice@example.com");
    recorder.open("session-without", { name: "cursor", version: "3" });
    const server = await startInspectorServer({
      model: createInspectorModel([]),
      sessions: () => ({ attached: true, sessions: recorder.sessions() }),
    });
    try {
      const answer = await (await fetch(`${server.url}api/sessions`)).json();
      const labels = (answer.sessions as LabelledSession[]).map(sessionLabel).sort();
      expect(labels).toEqual(["session- (claude 1.2) by alice@example.com", "session- (cursor 3)"]);
    } finally {
      await server.close();
    }
  });
});
