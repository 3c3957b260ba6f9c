// Recorder (source → encoder → ring + file) and the background-session control socket.
import Capture
