// Frame sources: the stand-in camera (TestPatternSource), files (FileSource), V4L2 cameras.
import Media
