// The built-in presets, as the JSON text of presets/*.json (EncoderCatalogTests checks that each
// file in presets/ equals its text here, so the two cannot drift). To change a built-in, edit both.

/// The presets rec ships with, by name.
public enum BuiltinPresets {
    /// The built-in names in the order docs/PRESETS.md introduces them.
    public static let names = ["default", "quality", "small", "lossless", "mjpeg", "camera-copy", "sepia", "pi", "vaapi", "nvenc"]

    /// Each built-in's JSON text, exactly as in presets/NAME.json.
    public static let json: [String: String] = [
        "default": """
        {
          "description": "H.264 in MP4 that holds 1080p30 in real time on two cores and plays everywhere",
          "container": "mp4",
          "encoder": "libx264",
          "pixel_format": "yuv420p",
          "crf": 23,
          "keyframe_interval": 1,
          "bframes": 0,
          "preset": "veryfast"
        }

        """,
        "quality": """
        {
          "description": "H.264 near-transparent quality (crf 18, slow); needs 4 cores for 1080p30, fine at 720p on 2",
          "container": "mp4",
          "encoder": "libx264",
          "pixel_format": "yuv420p",
          "crf": 18,
          "keyframe_interval": 1,
          "bframes": 3,
          "preset": "slow"
        }

        """,
        "small": """
        {
          "description": "VP9 in WebM, about 60% of default's size; real time at 720p30 on two cores (libvpx realtime)",
          "container": "webm",
          "encoder": "libvpx-vp9",
          "pixel_format": "yuv420p",
          "crf": 40,
          "keyframe_interval": 1,
          "options": {
            "cpu-used": "8",
            "deadline": "realtime",
            "row-mt": "1",
            "tile-columns": "2"
          }
        }

        """,
        "lossless": """
        {
          "description": "FFV1 (and FLAC sound) in Matroska: every pixel and sample kept, in the source's own pixel format; big files",
          "container": "mkv",
          "encoder": "ffv1",
          "keyframe_interval": 1,
          "audio": "flac",
          "options": {
            "level": "3",
            "slicecrc": "1",
            "slices": "4"
          }
        }

        """,
        "mjpeg": """
        {
          "description": "Motion JPEG in Matroska: every frame a keyframe, cheap to encode, easy to cut; large",
          "container": "mkv",
          "encoder": "mjpeg",
          "pixel_format": "yuvj422p",
          "qscale": 3,
          "keyframe_interval": 1
        }

        """,
        "camera-copy": """
        {
          "description": "A camera's MJPEG stored as it comes, no decoding or encoding (MJPEG cameras only)",
          "container": "mkv",
          "encoder": "copy"
        }

        """,
        "sepia": """
        {
          "description": "The default H.264 with a sepia look: shows the filter and base keys",
          "base": "default",
          "filter": "colorchannelmixer=rr=0.393:rg=0.769:rb=0.189:gr=0.349:gg=0.686:gb=0.168:br=0.272:bg=0.534:bb=0.131"
        }

        """,
        "pi": """
        {
          "description": "H.264 on a Raspberry Pi's hardware encoder (h264_v4l2m2m): 1080p30 with the CPU left free",
          "container": "mp4",
          "encoder": "h264_v4l2m2m",
          "pixel_format": "yuv420p",
          "bitrate": "6M",
          "keyframe_interval": 1
        }

        """,
        "vaapi": """
        {
          "description": "H.264 on an Intel or AMD GPU through VAAPI (h264_vaapi on /dev/dri/renderD128)",
          "container": "mp4",
          "encoder": "h264_vaapi",
          "pixel_format": "nv12",
          "bitrate": "6M",
          "keyframe_interval": 1,
          "bframes": 0
        }

        """,
        "nvenc": """
        {
          "description": "H.264 on an NVIDIA GPU (h264_nvenc); frames go up from system memory",
          "container": "mp4",
          "encoder": "h264_nvenc",
          "pixel_format": "yuv420p",
          "bitrate": "6M",
          "keyframe_interval": 1,
          "bframes": 0,
          "preset": "p4"
        }

        """,
    ]
}
