import { undoSuite } from "./undo-suite.ts";

undoSuite("1.1.53", "supergroup");
